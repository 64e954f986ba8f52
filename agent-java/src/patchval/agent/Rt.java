// patchval agent: Rt owns the single native entry point that woven (patched) code calls at a patch site.
package patchval.agent;

public final class Rt {
    private Rt() {}

    /** Implemented in Rust (registered with RegisterNatives). Woven code calls it at a patched location;
        returns the index of the patch to execute this round, or -1 to execute the original code. */
    public static native int choose(int site);
}
