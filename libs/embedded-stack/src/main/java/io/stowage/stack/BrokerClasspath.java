package io.stowage.stack;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Produces the class path of the Kafka broker JVM from the jar list Maven wrote at build time
 * ({@code kafka-broker.classpath}: kafka_2.13 and its runtime dependencies, which are optional dependencies
 * of this module and so never reach its users' class paths) plus the location of this module's own code.
 */
final class BrokerClasspath {
    private static final String CLASSPATH_RESOURCE = "kafka-broker.classpath";

    private BrokerClasspath() {
    }

    /**
     * @return the broker JVM's class path: this module's jar or classes directory, then the jars listed at build time
     * @throws IOException when a listed jar is missing (the module was built on another machine) or the code cannot be located
     */
    static String build() throws IOException {
        String jars;
        try (InputStream in = BrokerClasspath.class.getResourceAsStream(CLASSPATH_RESOURCE)) {
            if (in == null) {
                throw new IOException("resource io/stowage/stack/" + CLASSPATH_RESOURCE + " missing: rebuild stowage-stack");
            }
            jars = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        for (String jar : jars.split(File.pathSeparator)) {
            if (!Files.exists(Path.of(jar))) {
                throw new IOException("Kafka broker jar " + jar + " not found: the stack module was built in another checkout or on another machine: run `./mvnw -B install -DskipTests -pl libs/embedded-stack -am` in this one");
            }
        }
        return ownCodeSource() + File.pathSeparator + jars;
    }

    /** Where KafkaBrokerMain.class comes from: this module's jar or classes directory, in any class loader. */
    private static String ownCodeSource() throws IOException {
        String resource = KafkaBrokerMain.class.getName().replace('.', '/') + ".class";
        URL url = BrokerClasspath.class.getClassLoader().getResource(resource);
        if (url == null) {
            throw new IOException("cannot locate " + resource);
        }
        String text = url.toString();
        try {
            if (text.startsWith("jar:")) {
                return Path.of(new URL(text.substring(4, text.indexOf("!/"))).toURI()).toString();
            }
            if (text.startsWith("file:")) {
                Path classFile = Path.of(url.toURI());
                return classFile.toString().substring(0, classFile.toString().length() - resource.length());
            }
        } catch (URISyntaxException e) {
            throw new IOException("cannot locate " + resource + " from " + text, e);
        }
        throw new IOException("cannot run the Kafka broker from code loaded as " + text);
    }
}
