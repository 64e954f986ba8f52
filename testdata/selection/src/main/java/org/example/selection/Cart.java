package org.example.selection;

import java.util.ArrayList;
import java.util.List;

/** Lines of priced items; the total asks each item for its price. */
public class Cart {
    private final List<Priced> items = new ArrayList<>();
    private final List<Integer> quantities = new ArrayList<>();

    public Cart add(Priced item, int quantity) {
        items.add(item);
        quantities.add(quantity);
        return this;
    }

    public int total() {
        int sum = 0;
        for (int i = 0; i < items.size(); i++) {
            sum += items.get(i).priceFor(quantities.get(i));
        }
        return sum;
    }
}
