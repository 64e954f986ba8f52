package org.example.kept;

/**
 * Inks every pen knows, made by the interface's initialiser as jackson-core's PrettyPrinter makes
 * its Separators and SerializedString: objects of a reset class, whose making writes no class's state.
 */
public interface Pen {
    Ink BLACK = new Ink("black");
    Ink RED = new Ink("red");

    String draw(String text);
}
