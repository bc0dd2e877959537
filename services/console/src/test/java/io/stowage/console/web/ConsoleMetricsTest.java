package io.stowage.console.web;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.stowage.auth.TestTokens;
import org.junit.jupiter.api.Test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's meters on {@code /q/metrics}, scraped without a session or token: a sign-in with an unknown token adds
 * one {@code refused}, one with the operator's token one {@code signed_in}, the sign-in page's GET is counted under its
 * route by Quarkus' HTTP server meter, and neither token appears in the answer.
 */
@QuarkusTest
class ConsoleMetricsTest {
    private static final Pattern CSRF = Pattern.compile("name=\"([^\"]*csrf[^\"]*)\" value=\"([^\"]+)\"");

    @Test
    void signInsByOutcomeAndPageRequestsAreCountedAndNoTokenIsShown() {
        double refused = metric("stowage_console_signins_total", "outcome=\"refused\"");
        double signedIn = metric("stowage_console_signins_total", "outcome=\"signed_in\"");
        double pages = metric("http_server_requests_seconds_count", "method=\"GET\",outcome=\"SUCCESS\",status=\"200\",uri=\"/signin\"");

        assertThat(signIn("wrong-token-" + System.nanoTime()).statusCode()).isEqualTo(401);
        assertThat(signIn(TestTokens.OPERATOR).statusCode()).isEqualTo(303);

        assertThat(metric("stowage_console_signins_total", "outcome=\"refused\"") - refused).isEqualTo(1);
        assertThat(metric("stowage_console_signins_total", "outcome=\"signed_in\"") - signedIn).isEqualTo(1);
        assertThat(metric("http_server_requests_seconds_count",
                "method=\"GET\",outcome=\"SUCCESS\",status=\"200\",uri=\"/signin\"") - pages).isEqualTo(2);
        String text = RestAssured.get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(text).doesNotContain("wrong-token-").doesNotContain(TestTokens.OPERATOR).doesNotContain("test-operator");
    }

    /** GETs the form for its CSRF cookie and field, then POSTs {@code token} with them. */
    private static Response signIn(String token) {
        Response form = RestAssured.get("/signin").then().statusCode(200).extract().response();
        Matcher field = CSRF.matcher(form.asString());
        assertThat(field.find()).as("the form's CSRF field").isTrue();
        return RestAssured.given().redirects().follow(false).cookies(form.getCookies())
                .contentType("application/x-www-form-urlencoded")
                .formParam(field.group(1), field.group(2)).formParam("token", token).formParam("next", "/")
                .post("/signin").then().extract().response();
    }

    /** @return the value of one Prometheus series on {@code /q/metrics} (labels in name order), 0 before any */
    static double metric(String name, String labels) {
        String text = RestAssured.get("/q/metrics").then().statusCode(200).extract().asString();
        for (String line : text.split("\n")) {
            if (line.startsWith(name + "{" + labels)) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }
}
