package io.stowage.cli;

import picocli.CommandLine;

import java.time.Duration;

/**
 * Converts the text of every {@link Duration} option (registered for the whole {@code stowage} command line) with
 * {@link ResourceUnits#duration}: a bad value is one line naming the option and the accepted forms, exit 2.
 */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
        try {
            return ResourceUnits.duration(value);
        } catch (CliException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
