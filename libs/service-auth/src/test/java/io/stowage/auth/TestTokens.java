package io.stowage.auth;

import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;

/**
 * The two tokens every service's tests use (shipped in this module's test jar, never in a service). Each service's
 * {@code application.properties} configures only their hashes under {@code %test.stowage.auth.tokens}
 * ({@link #CONFIG}); {@code TestTokensTest} checks those hashes match these tokens.
 */
public final class TestTokens {
    /** An operator token for tests; worthless outside the {@code test} profile. */
    public static final String OPERATOR = "test-operator-token-not-a-secret";
    /** A reader token for tests. */
    public static final String READER = "test-reader-token-not-a-secret";
    /** The {@code stowage.auth.tokens} value the services' test profile holds: names {@code test-operator}, {@code test-reader}. */
    public static final String CONFIG = "operator:test-operator:f0b83c6ddd0896c12b3ebecdee16a57448910275152eba57c55577b1a9ec9188,"
            + "reader:test-reader:226b2cc4bd9718aa4f9666450472ee054b913cd0ea8dad1f559a863629dab9f1";

    private TestTokens() {
    }

    /** @return RestAssured's {@code given()} with {@code Authorization: Bearer <operator token>} (an operator may also read) */
    public static RequestSpecification given() {
        return RestAssured.given().auth().oauth2(OPERATOR);
    }

    /** @return RestAssured's {@code given()} with the reader token */
    public static RequestSpecification givenReader() {
        return RestAssured.given().auth().oauth2(READER);
    }

    /** @return the value of an {@code Authorization} header carrying {@code token} */
    public static String bearer(String token) {
        return "Bearer " + token;
    }
}
