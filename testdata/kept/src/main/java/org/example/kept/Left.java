package org.example.kept;

/** An enum whose constant's field another enum's initialiser writes (Right). */
public enum Left {
    L;

    Right partner;

    public Right partner() {
        return partner;
    }
}
