package io.stowage.cli;

import picocli.CommandLine;

import java.math.BigDecimal;

/**
 * Converts the text of every {@link BigDecimal} option (registered for the whole {@code stowage} command line: money
 * caps and prices in US dollars, GPU-hour caps): a plain non-negative decimal such as {@code 50} or {@code 12.5}.
 * Anything else (a word, an exponent, a sign, a currency symbol) is one line naming the option and the accepted form,
 * exit 2, so that no cap is set from a value the user did not mean.
 */
public final class AmountConverter implements CommandLine.ITypeConverter<BigDecimal> {
    private static final java.util.regex.Pattern PLAIN = java.util.regex.Pattern.compile("[0-9]+(\\.[0-9]+)?");

    @Override
    public BigDecimal convert(String value) {
        String text = value == null ? "" : value.strip();
        if (!PLAIN.matcher(text).matches()) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not an amount: give a non-negative decimal"
                    + " number such as 50 or 12.5");
        }
        return new BigDecimal(text);
    }
}
