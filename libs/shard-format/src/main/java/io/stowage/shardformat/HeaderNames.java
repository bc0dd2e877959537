package io.stowage.shardformat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a member's name from the raw header records that precede its data (PAX extended header {@code x}, PAX global
 * header {@code g}, GNU long name {@code L}, the ustar header itself), as a tar tool would see it. Commons Compress
 * strips a leading '/' from PAX and GNU long names while it parses them; the reader judges the name before that
 * step, so an absolute name cannot pass as a relative one. Holds the global PAX {@code path} across members.
 */
final class HeaderNames {
    private static final int BLOCK = TarEndWatch.BLOCK;
    private static final int TYPE = 156;
    private static final int SIZE = 124;
    private static final int MAGIC = 257;
    private static final int PREFIX = 345;

    private String globalPath;

    /**
     * @param records the decompressed bytes from the first header record of the member to the start of its data
     * @return every name the records give the member, the one tar tools use first (local PAX path, global PAX path,
     *         GNU long name, ustar prefix/name); empty when the records cannot be read
     */
    List<String> names(byte[] records) {
        String localPath = null;
        String longName = null;
        String ustar = null;
        for (int at = 0; at + BLOCK <= records.length && ustar == null; ) {
            byte type = records[at + TYPE];
            long size = octal(records, at + SIZE, 12);
            int dataEnd = (int) Math.min(records.length, at + BLOCK + Math.max(0, size));
            switch (type) {
                case 'x', 'X' -> localPath = paxPath(records, at + BLOCK, dataEnd, localPath);
                case 'g' -> globalPath = paxPath(records, at + BLOCK, dataEnd, globalPath);
                case 'L' -> longName = cString(records, at + BLOCK, dataEnd);
                case 'K' -> { }
                default -> ustar = ustarName(records, at);
            }
            at += BLOCK + (ustar == null ? (int) ((Math.max(0, size) + BLOCK - 1) / BLOCK * BLOCK) : 0);
        }
        List<String> names = new ArrayList<>();
        for (String name : new String[] {localPath, globalPath, longName, ustar}) {
            if (name != null) {
                names.add(name);
            }
        }
        return names;
    }

    private static String ustarName(byte[] block, int at) {
        String name = cString(block, at, at + 100);
        boolean ustar = new String(block, at + MAGIC, 6, StandardCharsets.ISO_8859_1).equals("ustar\0");
        String prefix = ustar ? cString(block, at + PREFIX, at + PREFIX + 155) : "";
        return prefix.isEmpty() ? name : prefix + "/" + name;
    }

    /** PAX records are {@code "<length> <key>=<value>\n"}, the length counting the whole record in bytes. */
    private static String paxPath(byte[] data, int from, int to, String previous) {
        String path = previous;
        int at = from;
        while (at < to) {
            int space = at;
            while (space < to && data[space] >= '0' && data[space] <= '9') {
                space++;
            }
            if (space == at || space >= to || data[space] != ' ') {
                return path;
            }
            int length = Integer.parseInt(new String(data, at, Math.min(space - at, 9), StandardCharsets.US_ASCII));
            int end = at + length;
            if (length <= space - at + 1 || end > to || data[end - 1] != '\n') {
                return path;
            }
            String record = new String(data, space + 1, end - space - 2, StandardCharsets.UTF_8);
            if (record.startsWith("path=")) {
                path = record.substring("path=".length());
            }
            at = end;
        }
        return path;
    }

    private static String cString(byte[] bytes, int from, int to) {
        int end = from;
        while (end < to && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, from, end - from, StandardCharsets.UTF_8);
    }

    private static long octal(byte[] bytes, int from, int length) {
        long value = 0;
        for (int i = from; i < from + length; i++) {
            byte b = bytes[i];
            if (b >= '0' && b <= '7') {
                value = value * 8 + (b - '0');
            } else if (b != ' ' || value != 0) {
                if (b == 0 || b == ' ') {
                    break;
                }
                return -1;
            }
        }
        return value;
    }
}
