package org.example.empty;

public class Greeter {

    public String greet(String name) {
        return "Hello, " + name;
    }
}
