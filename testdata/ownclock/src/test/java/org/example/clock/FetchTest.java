package org.example.clock;

import static org.junit.Assert.assertEquals;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.junit.Test;

/**
 * A client that reads from a local server with a read timeout of its own, as HTTP clients' tests
 * do: the server answers after the third attempt's backoff, so the test passes in milliseconds,
 * unless the server is slower than the client's 1 s read timeout, when it fails with
 * {@code SocketTimeoutException: Read timed out}. That happens for a patch whose backoff is too
 * long, and, whatever the patch, when the file named by {@code OWNCLOCK_LOAD} exists: it stands for a
 * machine so loaded that the server's answer comes too late (patchval's tests create it). Empty,
 * the load lasts; holding a number N, it lasts N more runs of this test (a burst).
 */
public class FetchTest {
    @Test
    public void answersWithinTheReadTimeout() throws Exception {
        int delay = Backoff.delayMs(3);
        String load = System.getenv("OWNCLOCK_LOAD");
        if (load != null && Files.exists(Paths.get(load))) {
            String left = new String(Files.readAllBytes(Paths.get(load)), StandardCharsets.UTF_8).trim();
            if (left.isEmpty()) {
                delay += 1500;
            } else if (Integer.parseInt(left) > 0) {
                delay += 1500;
                Files.write(Paths.get(load), String.valueOf(Integer.parseInt(left) - 1).getBytes(StandardCharsets.UTF_8));
            }
        }
        final int wait = delay;
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread answer = new Thread(() -> {
                try (Socket s = server.accept()) {
                    Thread.sleep(wait);
                    OutputStream out = s.getOutputStream();
                    out.write("ok\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                } catch (Exception e) {
                    // the client gave up
                }
            });
            answer.setDaemon(true);
            answer.start();
            try (Socket client = new Socket(server.getInetAddress(), server.getLocalPort())) {
                client.setSoTimeout(1000);
                BufferedReader in = new BufferedReader(
                        new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
                assertEquals("ok", in.readLine());
            }
            answer.join(5000);
        }
    }
}
