package org.example.selection;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class PlaylistTest {
    @Test
    public void cursorWrapsAround() {
        Playlist.Cursor c = new Playlist().add("a").add("b").add("c").cursor();
        assertEquals("a", c.next());
        assertEquals("b", c.next());
        assertEquals("c", c.next());
        assertEquals("a", c.next());
    }

    @Test
    public void durationText() {
        assertEquals("1:05", new Playlist.Duration(65).text());
        assertEquals("2:09", new Playlist.Duration(129).text());
        assertEquals("0:59", new Playlist.Duration(59).text());
        assertEquals("10:00", new Playlist.Duration(600).text());
    }

    @Test
    public void playsCounted() {
        Playlist p = new Playlist().add("x").add("y");
        Playlist.Cursor one = p.cursor();
        Playlist.Cursor two = p.cursor();
        one.next();
        two.next();
        one.next();
        assertEquals(3, p.plays());
    }
}
