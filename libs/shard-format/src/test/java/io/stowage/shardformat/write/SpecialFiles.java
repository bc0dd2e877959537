package io.stowage.shardformat.write;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Test helper: makes the special files a dataset directory must never contain. */
final class SpecialFiles {
    private SpecialFiles() {
    }

    /** Creates a FIFO with {@code mkfifo}. */
    static void fifo(Path path) throws IOException, InterruptedException {
        if (run("mkfifo", path.toString()) != 0) {
            throw new IOException("mkfifo failed for " + path);
        }
    }

    /** Binds a Unix domain socket at {@code path}; close the channel when done (the file stays). */
    static ServerSocketChannel socket(Path path) throws IOException {
        ServerSocketChannel channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        channel.bind(UnixDomainSocketAddress.of(path));
        return channel;
    }

    /** @return true when {@code mknod path c 1 3} (a /dev/null twin) succeeded; only root may do it */
    static boolean characterDevice(Path path) throws IOException, InterruptedException {
        return run("mknod", path.toString(), "c", "1", "3") == 0;
    }

    private static int run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("timed out: " + String.join(" ", command));
        }
        return process.exitValue();
    }
}
