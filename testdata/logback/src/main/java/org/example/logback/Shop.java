package org.example.logback;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Adds a fee, logging through SLF4J; Logback infers each event's caller from the stack. */
public class Shop {
    private static final Logger LOG = LoggerFactory.getLogger(Shop.class);

    public static int total(int amount) {
        int fee;
        fee = amount / 10;
        return amount + fee;
    }
}
