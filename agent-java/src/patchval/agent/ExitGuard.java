// patchval agent: ExitGuard owns the SecurityManager that turns System.exit/Runtime.halt into a SecurityException.
package patchval.agent;

import java.security.Permission;

@SuppressWarnings("removal")
final class ExitGuard extends SecurityManager {
    /** Set when patchval itself ends the process; tests never see it set. */
    private static volatile boolean leaving;

    /** Ends the JVM on patchval's own behalf, past the guard. */
    static void halt(int status) {
        leaving = true;
        Runtime.getRuntime().halt(status);
    }

    @Override
    public void checkExit(int status) {
        if (leaving) return;
        throw new SecurityException("patchval: System.exit(" + status + ") blocked");
    }

    @Override
    public void checkPermission(Permission perm) {
        // everything else is permitted
    }

    @Override
    public void checkPermission(Permission perm, Object context) {
        // everything else is permitted
    }

    static boolean install() {
        try {
            if (System.getSecurityManager() instanceof ExitGuard) return true;
            System.setSecurityManager(new ExitGuard());
            return System.getSecurityManager() instanceof ExitGuard;
        } catch (UnsupportedOperationException | SecurityException e) {
            return false;
        } catch (Throwable t) {
            return false;
        }
    }
}
