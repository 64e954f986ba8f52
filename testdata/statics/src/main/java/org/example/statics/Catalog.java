package org.example.statics;

import java.util.ArrayList;
import java.util.List;

/** An interface whose (final) static field holds a mutable list. */
public interface Catalog {
    List<String> ENTRIES = new ArrayList<>();
}
