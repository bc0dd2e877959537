package io.stowage.auth;

import java.util.Set;

/**
 * The two roles a bearer token can carry, as the names used in {@code @RolesAllowed}. An operator token is also a
 * reader: its identity carries both roles, so a read endpoint names {@link #READER} only.
 */
public final class Roles {
    /** May read: every {@code GET} of the services' APIs. */
    public static final String READER = "reader";
    /** May change or delete: release requests, volume and pod actions, shard builds, replays; also a reader. */
    public static final String OPERATOR = "operator";

    private Roles() {
    }

    /**
     * @param role {@code reader} or {@code operator}, as written in a token line
     * @return the roles the identity of such a token holds
     * @throws IllegalArgumentException for any other name
     */
    public static Set<String> grantedBy(String role) {
        return switch (role) {
            case READER -> Set.of(READER);
            case OPERATOR -> Set.of(OPERATOR, READER);
            default -> throw new IllegalArgumentException("unknown role '" + role + "' (reader or operator)");
        };
    }
}
