package org.example.wide;

/** A sum over many locals: a patch at its return that names them all takes them all as arguments. */
public final class Wide {

    private Wide() {
    }

    /** The sum of x, x + 1, ..., x + 47. */
    public static int spread(int x) {
        int a0 = x + 0;
        int a1 = x + 1;
        int a2 = x + 2;
        int a3 = x + 3;
        int a4 = x + 4;
        int a5 = x + 5;
        int a6 = x + 6;
        int a7 = x + 7;
        int a8 = x + 8;
        int a9 = x + 9;
        int a10 = x + 10;
        int a11 = x + 11;
        int a12 = x + 12;
        int a13 = x + 13;
        int a14 = x + 14;
        int a15 = x + 15;
        int a16 = x + 16;
        int a17 = x + 17;
        int a18 = x + 18;
        int a19 = x + 19;
        int a20 = x + 20;
        int a21 = x + 21;
        int a22 = x + 22;
        int a23 = x + 23;
        int a24 = x + 24;
        int a25 = x + 25;
        int a26 = x + 26;
        int a27 = x + 27;
        int a28 = x + 28;
        int a29 = x + 29;
        int a30 = x + 30;
        int a31 = x + 31;
        int a32 = x + 32;
        int a33 = x + 33;
        int a34 = x + 34;
        int a35 = x + 35;
        int a36 = x + 36;
        int a37 = x + 37;
        int a38 = x + 38;
        int a39 = x + 39;
        int a40 = x + 40;
        int a41 = x + 41;
        int a42 = x + 42;
        int a43 = x + 43;
        int a44 = x + 44;
        int a45 = x + 45;
        int a46 = x + 46;
        int a47 = x + 47;
        return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14 + a15 + a16 + a17 + a18 + a19 + a20 + a21 + a22 + a23 + a24 + a25 + a26 + a27 + a28 + a29 + a30 + a31 + a32 + a33 + a34 + a35 + a36 + a37 + a38 + a39 + a40 + a41 + a42 + a43 + a44 + a45 + a46 + a47;
    }
}
