package io.stowage.provideradapter.domain.resource;

import java.math.BigDecimal;

/**
 * A pod as the provider reports it.
 *
 * @param id             the provider's id
 * @param name           its name
 * @param costPerHourUsd what it bills per hour in US dollars
 * @param status         the provider's status word, e.g. "RUNNING", "EXITED", "TERMINATED"
 */
public record ProvisionedPod(String id, String name, BigDecimal costPerHourUsd, String status) {
}
