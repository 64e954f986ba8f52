package org.example.hostile;

public class Counter {
    private int value;

    public void increment() {
        value++;
    }

    public void add(int n) {
        value += n;
    }

    public int get() {
        return value;
    }
}
