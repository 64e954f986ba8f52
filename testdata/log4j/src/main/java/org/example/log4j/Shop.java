package org.example.log4j;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/** Adds a fee, logging through Log4j 2, which locates each event's caller on the stack. */
public class Shop {
    private static final Logger LOG = LogManager.getLogger(Shop.class);

    public static int total(int amount) {
        int fee;
        fee = amount / 10;
        return amount + fee;
    }
}
