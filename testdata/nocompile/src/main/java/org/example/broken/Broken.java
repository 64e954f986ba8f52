package org.example.broken;

public class Broken {

    public static int answer() {
        int answer = "forty-two";
        return answer;
    }
}
