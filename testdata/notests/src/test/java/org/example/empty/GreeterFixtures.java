package org.example.empty;

/** Test-side helpers only: nothing here is a test. */
public class GreeterFixtures {

    public static Greeter newGreeter() {
        return new Greeter();
    }

    public void checkGreeting() {
        if (!newGreeter().greet("x").equals("Hello, x")) {
            throw new AssertionError("bad greeting");
        }
    }
}
