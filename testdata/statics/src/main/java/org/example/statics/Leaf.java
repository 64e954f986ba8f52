package org.example.statics;

/** No static state: creating one initialises {@link Base}. */
public class Leaf extends Base {
    public int value() {
        return inits;
    }
}
