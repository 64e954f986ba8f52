package org.example.soundness;

/** Remembers the last value and the last name it was given (the objects themselves). */
public class History {

    private Integer last;
    private String lastName;

    public void record(Integer v) {
        last = v;
    }

    public Integer last() {
        return last;
    }

    public void name(String s) {
        lastName = s;
    }

    public String lastName() {
        return lastName;
    }
}
