package org.example.kept;

/** An enum whose initialiser always throws: each fresh loader reports ExceptionInInitializerError. */
public enum Broken {
    ONLY(0);

    private final int inverse;

    Broken(int n) {
        this.inverse = 1 / n;
    }

    public int inverse() {
        return inverse;
    }
}
