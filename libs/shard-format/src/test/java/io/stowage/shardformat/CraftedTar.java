package io.stowage.shardformat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes tar records byte by byte, without Commons Compress, so a test can put any name where a hostile tool would:
 * the ustar name field, a PAX {@code path} record (local or global), a GNU long name.
 */
final class CraftedTar {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** A regular file whose ustar header name is {@code name} (at most 100 bytes). */
    CraftedTar file(String name, byte[] content) {
        header(name, '0', content.length);
        data(content);
        return this;
    }

    /** A PAX extended header (local, type 'x', or global, type 'g') holding one {@code path} record. */
    CraftedTar paxPath(char type, String path) {
        byte[] value = ("path=" + path + "\n").getBytes(StandardCharsets.UTF_8);
        int length = value.length + 2;
        while (Integer.toString(length).length() + 1 + value.length != length) {
            length++;
        }
        byte[] record = (length + " ").getBytes(StandardCharsets.US_ASCII);
        byte[] data = Arrays.copyOf(record, record.length + value.length);
        System.arraycopy(value, 0, data, record.length, value.length);
        header("././@PaxHeader", type, data.length);
        data(data);
        return this;
    }

    /** A GNU long name record (type 'L') for the next header. */
    CraftedTar gnuLongName(String name) {
        byte[] data = (name + "\0").getBytes(StandardCharsets.UTF_8);
        header("././@LongLink", 'L', data.length);
        data(data);
        return this;
    }

    /** @return the tar so far with its end-of-archive marker */
    byte[] finish() {
        out.writeBytes(new byte[1024]);
        return out.toByteArray();
    }

    private void header(String name, char type, long size) {
        byte[] block = new byte[512];
        byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(nameBytes, 0, block, 0, Math.min(100, nameBytes.length));
        octal(block, 100, 8, 0644);
        octal(block, 108, 8, 0);
        octal(block, 116, 8, 0);
        octal(block, 124, 12, size);
        octal(block, 136, 12, 0);
        block[156] = (byte) type;
        System.arraycopy("ustar\0".getBytes(StandardCharsets.US_ASCII), 0, block, 257, 6);
        block[263] = '0';
        block[264] = '0';
        Arrays.fill(block, 148, 156, (byte) ' ');
        long sum = 0;
        for (byte b : block) {
            sum += b & 0xff;
        }
        octal(block, 148, 7, sum);
        out.writeBytes(block);
    }

    private void data(byte[] content) {
        out.writeBytes(content);
        out.writeBytes(new byte[(512 - content.length % 512) % 512]);
    }

    private static void octal(byte[] block, int at, int width, long value) {
        String digits = Long.toOctalString(value);
        String padded = "0".repeat(width - 1 - digits.length()) + digits;
        System.arraycopy(padded.getBytes(StandardCharsets.US_ASCII), 0, block, at, width - 1);
    }
}
