package org.example.shapes;

import java.util.function.IntUnaryOperator;

public class Shapes {
    public static final class Box {
        final int side;

        Box(int side) {
            this.side = side;
        }

        int area() {
            return side * side;
        }
    }

    public static Box boxOf(int x) {
        return new Box(x >= 0 ? x : -x);
    }

    public static int perimeter(Box b) {
        IntUnaryOperator sides = s ->
            s * 3;
        return sides.applyAsInt(b.side);
    }

    public static int largest(Box... boxes) {
        int best = 0;
        for (Box b : boxes) {
            if (b.area() > best) {
                best = b.area();
            }
        }
        return best;
    }
}
