package org.example.selection;

import java.util.ArrayList;
import java.util.List;

/** Titles, their durations (a static nested class) and a wrapping cursor (an inner class). */
public final class Playlist {
    private final List<String> titles = new ArrayList<>();
    private int plays;

    public Playlist add(String title) {
        titles.add(title);
        return this;
    }

    public Cursor cursor() {
        return new Cursor();
    }

    public int plays() {
        return plays;
    }

    /** A track length in seconds, shown as m:ss. */
    public static final class Duration {
        private final int seconds;

        public Duration(int seconds) {
            this.seconds = seconds;
        }

        public String text() {
            int m = seconds / 60;
            int s = seconds % 60;
            return m + ":" + (s < 10 ? "0" : "") + s;
        }
    }

    /** Walks the playlist's titles round and round, counting the plays in the playlist. */
    public final class Cursor {
        private int pos;

        public String next() {
            String title = titles.get(pos);
            pos = (pos + 1) % titles.size();
            plays++;
            return title;
        }
    }
}
