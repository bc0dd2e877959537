package io.stowage.provideradapter.domain.resource;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * What an operator asks for when creating a volume ({@code stowage volume create}).
 *
 * @param name     a name of ASCII letters, digits, '.', '_' or '-'
 * @param purpose  e.g. "scratch", "hot"
 * @param sizeGb   size in GB (10^9 bytes), 1 to 4000 (RunPod's bounds)
 * @param ttl      time to live, {@link Duration#ZERO} for none
 * @param capUsd   money cap in US dollars over the volume's lifetime, null for none
 * @param runId    the training run it serves, null for none
 */
public record VolumeSpec(String name, String purpose, int sizeGb, Duration ttl, BigDecimal capUsd, String runId) {

    public VolumeSpec {
        if (name == null || !name.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException("volume name must be 1-64 of [A-Za-z0-9._-]: " + name);
        }
        if (sizeGb < 1 || sizeGb > 4000) {
            throw new IllegalArgumentException("volume size must be 1 to 4000 GB: " + sizeGb);
        }
        if (ttl == null || ttl.isNegative()) {
            throw new IllegalArgumentException("ttl must be zero (none) or positive");
        }
        if (capUsd != null && capUsd.signum() <= 0) {
            throw new IllegalArgumentException("cap must be positive: " + capUsd);
        }
        purpose = purpose == null || purpose.isBlank() ? "scratch" : purpose;
    }
}
