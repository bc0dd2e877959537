package io.stowage.cli.console;

import io.stowage.cli.Repo;
import io.stowage.cli.client.BearerToken;
import io.stowage.cli.client.LedgerClient;
import io.stowage.cli.client.ProviderClient;
import io.stowage.cli.client.ShardBuilderClient;
import io.stowage.cli.demo.DemoReport;
import io.stowage.cli.demo.DemoRunner;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Platform;
import com.fasterxml.jackson.databind.JsonNode;
import io.stowage.events.AssetIds;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The operator console in a real browser (Debian's headless Chromium driven by Selenium through chromedriver), against
 * the packaged services and the console as {@code stowage up} starts them, with the demo's data: sign-in as reader and
 * as operator, a dataset revision's shards and one shard's member manifest, a run's step, the denied release of the run directory (condition 5 naming
 * {@code train.log}), a release asked and done from the page, the refusals a reader and a forged form get, the volumes
 * page against the provider-adapter's own figures (an ACTIVE and a BLOCKED volume), an evidence id opening its ledger
 * event, a presigned link made by an operator for a proven model file (shown once, downloading the proven bytes, in no log
 * or ledger row; refused to a reader, for a checkpoint key and for 8 days), a run's retention planned by a reader and
 * applied by an operator, the last audit replay the ledger recorded, (a reader's apply and one confirming fewer
 * steps than the evaluation expires are refused with every object still stored), and the audit page with the chain verified through the head, then broken after one payload is edited by SQL
 * (and restored). Screenshots of the main pages go to {@code target/console-screenshots/} (docs/console/ holds copies).
 * Skipped when {@code /usr/bin/chromedriver} is absent.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserEndToEndTest {
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Pattern CSRF = Pattern.compile("name=\"csrf-token\" value=\"([^\"]+)\"");

    private static Path work;
    private static Platform platform;
    private static DemoRunner.HotVolume hot;
    private static DemoReport report;
    private static Path copy;
    private static String console;
    private static String reader;
    private static String operator;
    private static WebDriver browser;
    private static Path screenshots;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(Files.isExecutable(CHROMEDRIVER), "no " + CHROMEDRIVER + " (Debian package chromium-driver)");
        work = Files.createTempDirectory("stowage-console-e2e-");
        hot = DemoRunner.HotVolume.prepare(Repo.root(), work);
        platform = Platform.start(work, hot.protectedRoots(work), hot.volumeRoots(), new Progress(System.err, false));
        operator = Files.readString(work.resolve("tokens").resolve(BearerToken.OPERATOR_FILE)).strip();
        reader = Files.readString(work.resolve("tokens").resolve(BearerToken.READER_FILE)).strip();
        System.setProperty("stowage.token", operator);
        report = new DemoRunner(platform.session(), new Progress(System.err, false)).run(hot);
        copy = archivedCopy();
        console = platform.session().serviceUrl("console").toString();
        screenshots = Repo.root().resolve("tools/cli/target/console-screenshots");
        Files.createDirectories(screenshots);
        browser = chromium();
    }

    /** A second copy of the samples, sharded and verified: a directory whose release the operator asks from the page. */
    private static Path archivedCopy() throws IOException {
        Path dir = hot.root().resolve("datasets").resolve("speech-console");
        copyTree(Repo.root().resolve("examples/samples/speech-en-allison"), dir);
        ShardBuilderClient.ShardResult shards = new ShardBuilderClient(platform.session().serviceUrl("shard-builder"))
                .shard(new ShardBuilderClient.ShardRequest(dir.toString(), "speech-console", "r1", "CC-BY-SA-3.0",
                        "examples/samples/speech-en-allison", 256L * 1024, platform.session().stagingDir(), true));
        new LedgerClient(platform.session().serviceUrl("ledger"))
                .awaitVerified(AssetIds.dataset("speech-console", "r1"), 2 * shards.shards() + 1, Duration.ofSeconds(180));
        return dir;
    }

    private static WebDriver chromium() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1400,1100");
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(240));
        return driver;
    }

    @AfterAll
    static void stop() {
        System.clearProperty("stowage.token");
        if (browser != null) {
            browser.quit();
        }
        if (platform != null) {
            platform.close();
        }
        if (work != null) {
            deleteTree(work);
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("==> could not remove " + root + ": " + e.getMessage());
        }
    }

    @Test
    @Order(1)
    void withoutATokenEveryPageRedirectsToTheSignInForm() {
        for (String page : List.of("/", "/datasets", "/runs", "/releases", "/free", "/volumes", "/audit")) {
            browser.get(console + page);
            assertThat(browser.getCurrentUrl()).as(page).startsWith(console + "/signin");
            assertThat(browser.findElements(By.id("who"))).isEmpty();
        }
        browser.findElement(By.id("token")).sendKeys("not-a-token");
        clickAndLoad(browser.findElement(By.id("signin-button")));
        assertThat(browser.findElement(By.id("error")).getText()).contains("not a reader's or an operator's");
        shot("signin");
    }

    @Test
    @Order(2)
    void aReaderSeesTheDeniedReleaseWithConditionFiveNamingTrainLogAndNoAction() {
        signIn(reader, "/free");
        assertThat(browser.findElement(By.id("who")).getText()).isEqualTo("cli-reader (reader)");
        WebElement row = row(hot.run());
        assertThat(row.findElement(By.className("decision")).getText()).contains("denied");
        List<String> failures = row.findElements(By.className("failure")).stream().map(WebElement::getText).toList();
        assertThat(failures).anySatisfy(f -> assertThat(f).startsWith("condition 5").contains("train.log"));
        assertThat(browser.findElements(By.className("plan"))).as("a reader gets no Plan button").isEmpty();
        shot("free");
    }

    @Test
    @Order(3)
    void aDatasetRevisionListsEveryShardWithItsSha256BytesMembersAndVerifications() {
        browser.get(console + "/datasets");
        shot("datasets");
        clickAndLoad(browser.findElement(By.cssSelector("a[href='/datasets/speech-en-allison/r1']")));
        assertThat(browser.getCurrentUrl()).isEqualTo(console + "/datasets/speech-en-allison/r1");
        List<WebElement> shards = browser.findElements(By.cssSelector("#shards tr.shard"));
        assertThat(shards).hasSize(report.dataset().shards());
        for (WebElement shard : shards) {
            assertThat(shard.findElement(By.className("sha256")).getText()).matches("[0-9a-f]{64}");
            assertThat(shard.findElement(By.className("bytes")).getText()).matches("\\d+ .*");
            assertThat(Integer.parseInt(shard.findElement(By.className("members")).getText().split("\\s")[0])).isPositive();
            assertThat(shard.findElement(By.className("verifications")).getText()).contains("OK HEAD primary at")
                    .contains("OK FULL_READ primary at");
        }
        assertThat(browser.findElement(By.id("license")).getText()).isEqualTo("CC-BY-SA-3.0");
        shot("dataset-revision");
        // a shard's member manifest, read from the store by the verifier and matched to the ledger's SHA-256
        WebElement first = shards.get(0);
        int count = Integer.parseInt(first.findElement(By.className("members")).getText().split("\\s")[0]);
        clickAndLoad(first.findElement(By.className("members-link")));
        assertThat(browser.findElement(By.id("members-total")).getText()).isEqualTo(String.valueOf(count));
        List<WebElement> members = browser.findElements(By.cssSelector("#members tr.member"));
        assertThat(members).hasSize(count);
        for (WebElement member : members) {
            assertThat(member.findElement(By.tagName("code")).getText()).isNotBlank().doesNotStartWith("/");
            assertThat(member.findElement(By.className("hash")).getText()).matches("[0-9a-f]{64}");
        }
        assertThat(browser.findElement(By.id("members-sha256")).getText()).matches("[0-9a-f]{64}");
        shot("members");
    }

    @Test
    @Order(4)
    void aRunListsItsStepsAndAStepShowsProvenanceMetricsAndVerificationHistory() {
        browser.get(console + "/runs");
        shot("runs");
        clickAndLoad(browser.findElement(By.linkText(DemoRunner.RUN)));
        List<String> steps = browser.findElements(By.cssSelector("#steps tr.step td:first-child")).stream()
                .map(WebElement::getText).toList();
        assertThat(steps).containsExactly("50", "100", "150");
        assertThat(browser.findElement(By.id("latest")).getText()).isEqualTo("step 150");
        shot("run");
        clickAndLoad(browser.findElement(By.linkText("150")));
        assertThat(browser.getCurrentUrl()).endsWith("/runs/" + DemoRunner.EXPERIMENT + "/" + DemoRunner.RUN + "/150");
        assertThat(browser.findElement(By.id("provenance")).getText()).contains("codeCommit");
        List<WebElement> verifications = browser.findElements(By.cssSelector("#verifications tr td.ok"));
        assertThat(verifications).isNotEmpty();
        assertThat(browser.findElement(By.id("verifications")).getText()).contains("replica");
        shot("step");
    }

    @Test
    @Order(5)
    void anOperatorPlansConfirmsAndSeesTheReleaseDone() {
        signIn(operator, "/free");
        assertThat(browser.findElement(By.id("who")).getText()).isEqualTo("cli-operator (operator)");
        clickAndLoad(row(copy).findElement(By.className("plan")));
        assertThat(browser.findElement(By.id("outcome")).getText()).isEqualTo("passed");
        assertThat(browser.findElements(By.cssSelector("tr.condition.passed"))).hasSize(5);
        assertThat(Files.isDirectory(copy)).as("a dry run deletes nothing").isTrue();
        String plan = browser.getCurrentUrl();
        shot("plan");
        clickAndLoad(browser.findElement(By.id("release-now")));
        assertThat(browser.findElement(By.id("outcome")).getText()).isEqualTo("released");
        assertThat(browser.findElement(By.id("freed")).getText()).contains("files");
        assertThat(Files.exists(copy)).as("released through the gate").isFalse();
        shot("released");
        browser.get(console + "/releases");
        assertThat(browser.findElement(By.id("release-" + plan.substring(plan.lastIndexOf('/') + 1))).getText())
                .contains("passed").contains("dry run");
        shot("releases");
        browser.get(console + "/");
        assertThat(Long.parseLong(browser.findElement(By.id("events")).getText())).isPositive();
        shot("overview");
        // a reader opening the same plan gets no release button
        signIn(reader, plan.substring(console.length()));
        assertThat(browser.findElement(By.id("outcome")).getText()).isEqualTo("passed");
        assertThat(browser.findElements(By.id("release-now"))).isEmpty();
    }

    @Test
    @Order(6)
    void aReaderPostOrAFormWithoutCsrfIsRefusedAndSendsNothing() throws Exception {
        HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        String csrf = csrf(http, get(http, "/signin"));
        assertThat(post(http, "/signin", "token=" + reader + "&next=/&csrf-token=" + csrf).statusCode()).isEqualTo(303);
        int before = releases();
        String target = hot.run().toString();
        HttpResponse<String> asReader = post(http, "/free/plan", "path=" + enc(target) + "&csrf-token=" + csrf);
        assertThat(asReader.statusCode()).isEqualTo(403);
        assertThat(asReader.body()).contains("needs an operator token");

        HttpClient op = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        String opCsrf = csrf(op, get(op, "/signin"));
        assertThat(post(op, "/signin", "token=" + operator + "&next=/&csrf-token=" + opCsrf).statusCode()).isEqualTo(303);
        assertThat(post(op, "/free/plan", "path=" + enc(target)).statusCode()).as("no CSRF token").isEqualTo(400);
        assertThat(post(op, "/free/plan", "path=" + enc(target) + "&csrf-token=forged").statusCode()).isEqualTo(400);

        HttpResponse<String> bearer = http.send(HttpRequest.newBuilder(URI.create(console + "/free/plan"))
                .header("Authorization", "Bearer " + reader).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("path=" + enc(target) + "&csrf-token=" + csrf)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(bearer.statusCode()).isEqualTo(403);
        assertThat(releases()).as("no release request was sent").isEqualTo(before);
    }

    @Test
    @Order(7)
    void scriptsMayPresentTheTokenAsABearerHeader() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(console + "/datasets"))
                .header("Authorization", "Bearer " + reader).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("speech-en-allison").doesNotContain(reader);
        HttpResponse<String> wrong = http.send(HttpRequest.newBuilder(URI.create(console + "/datasets"))
                .header("Authorization", "Bearer wrong").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(wrong.statusCode()).isEqualTo(401);
    }

    @Test
    @Order(8)
    void aReaderSeesAVolumesStateTtlCapAndCostAndTheArchivesCostAndTheChainVerifiedThroughTheHead() throws Exception {
        ProviderClient provider = new ProviderClient(platform.session().serviceUrl("provider-adapter"));
        JsonNode volume = provider.createVolume(Map.of("name", "console-scratch", "purpose", "scratch", "sizeGb", 50,
                "ttlSeconds", 3600, "capUsd", 5));
        String id = volume.path("id").asText();
        long primaryBytes = ledgerJson("/api/coverage?store=primary").path("bytes").asLong();
        signIn(reader, "/volumes");
        String at = browser.findElement(By.id("cost-at")).getText();
        JsonNode cost = provider.cost(at, primaryBytes);
        JsonNode archive = cost.path("archive");
        JsonNode line = line(cost, "volume", id);
        WebElement row = volumeRow(id);
        assertThat(row.findElement(By.className("state")).getText())
                .startsWith(provider.volume(id).orElseThrow().path("state").asText()).startsWith("ACTIVE");
        assertThat(row.getText()).contains("50 GB");
        assertThat(row.findElement(By.className("expires")).getText()).isEqualTo(volume.path("expiresAt").asText());
        Duration left = Duration.between(java.time.Instant.parse(at), java.time.Instant.parse(volume.path("expiresAt").asText()));
        assertThat(row.findElement(By.className("ttl-left")).getText()).as("time left at the page's instant")
                .isEqualTo(left.toMinutes() == 60 ? "1h left" : left.toMinutes() + "m"
                        + (left.toSecondsPart() == 0 ? "" : " " + left.toSecondsPart() + "s") + " left");
        assertThat(new java.math.BigDecimal(row.findElement(By.className("cap")).getText())).isEqualByComparingTo("5");
        assertThat(new java.math.BigDecimal(row.findElement(By.className("cost")).getText()))
                .as("the cost so far is the provider-adapter's line at the page's instant")
                .isEqualByComparingTo(line.path("costUsd").decimalValue());
        assertThat(Long.parseLong(browser.findElement(By.id("archived-bytes")).getAttribute("data-bytes")))
                .isEqualTo(primaryBytes).isPositive();
        assertThat(usd(browser.findElement(By.id("store-monthly")).getText()))
                .isEqualByComparingTo(archive.path("storeMonthlyUsd").decimalValue());
        assertThat(usd(browser.findElement(By.id("volume-monthly")).getText()))
                .isEqualByComparingTo(archive.path("onVolumeMonthlyUsd").decimalValue()).isPositive();
        shot("volumes");

        long headBefore = chainHead();
        browser.get(console + "/audit");
        String chain = browser.findElement(By.id("chain")).getText();
        long headAfter = chainHead();
        assertThat(chain).startsWith("intact: verified through seq ");
        long through = Long.parseLong(chain.replaceAll("^intact: verified through seq (\\d+) .*$", "$1"));
        assertThat(through).as("the ledger's head seq as the page was made").isBetween(headBefore, headAfter).isPositive();
        assertThat(browser.findElements(By.id("chain-broken"))).isEmpty();
        assertThat(browser.findElement(By.id("archives")).getText()).contains("No milestone archive was published");
        shot("audit");
    }

    @Test
    @Order(9)
    void aBlockedVolumeShowsWhatBlocksItsReleaseAndTheAlert() throws Exception {
        ProviderClient provider = new ProviderClient(platform.session().serviceUrl("provider-adapter"));
        JsonNode volume = provider.createVolume(Map.of("name", "console-blocked", "purpose", "scratch", "sizeGb", 10,
                "ttlSeconds", 3600));
        String id = volume.path("id").asText();
        Files.writeString(Path.of(volume.path("path").asText()).resolve("notes.txt"), "never archived\n");
        provider.sweep(java.time.Instant.parse(volume.path("createdAt").asText()).plusSeconds(3600).toString());
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500))
                .until(() -> "BLOCKED".equals(provider.volume(id).orElseThrow().path("state").asText()));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> ledgerJson("/api/payloads?assetId=" + enc(AssetIds.volume(id)) + "&topic=provider.alert")
                        .toString().contains("release-blocked"));
        signIn(reader, "/volumes");
        assertThat(volumeRow(id).findElement(By.className("state")).getText()).startsWith("BLOCKED");
        WebElement why = browser.findElement(By.cssSelector("#volumes tr.volume-blockers[data-id='" + id + "']"));
        List<String> blockers = why.findElements(By.className("blocker")).stream().map(WebElement::getText).toList();
        assertThat(blockers).isNotEmpty().containsExactlyElementsOf(texts(provider.volume(id).orElseThrow().path("blockers")));
        assertThat(String.join("\n", blockers)).contains("notes.txt");
        assertThat(why.findElement(By.className("alert")).getText()).contains("blocked").contains(volume.path("path").asText());
        ((org.openqa.selenium.JavascriptExecutor) browser).executeScript("arguments[0].scrollIntoView()", volumeRow(id));
        shot("volumes-blocked");

        // the overview's latest alerts are the ledger's, newest first, the blocked release among them
        // (a sweep may add an alert between the page and the question: asked again until both agree)
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(2))
                .untilAsserted(() -> {
                    browser.get(console + "/");
                    List<WebElement> rows = browser.findElements(By.cssSelector("#alerts tr")).stream()
                            .filter(r -> !r.findElements(By.tagName("td")).isEmpty()).toList();
                    JsonNode alerts = ledgerJson("/api/alerts?limit=10");
                    assertThat(rows).hasSize(alerts.size());
                    for (int i = 0; i < rows.size(); i++) {
                        List<WebElement> cells = rows.get(i).findElements(By.tagName("td"));
                        assertThat(cells.get(1).getText()).isEqualTo(alerts.get(i).path("kind").asText());
                        assertThat(cells.get(2).getText()).isEqualTo(alerts.get(i).path("subject").asText());
                        assertThat(cells.get(4).findElement(By.tagName("a")).getAttribute("href"))
                                .isEqualTo(console + "/events/" + alerts.get(i).path("eventId").asText());
                    }
                    assertThat(rows).anySatisfy(r -> assertThat(r.getText()).contains("release-blocked")
                            .contains("volume/" + id));
                });
        shot("overview-alerts");
    }

    @Test
    @Order(10)
    void aConditionsEvidenceIdOpensThatLedgerEvent() throws Exception {
        signIn(reader, "/releases");
        WebElement link = browser.findElements(By.cssSelector("a.evidence")).get(0);
        String href = link.getAttribute("href");
        String eventId = link.getAttribute("textContent").strip();
        assertThat(href).isEqualTo(console + "/events/" + eventId);
        JsonNode receipt = ledgerJson("/api/events/" + eventId);
        browser.get(href);
        assertThat(browser.findElement(By.id("topic")).getText()).isEqualTo(receipt.path("topic").asText());
        assertThat(browser.findElement(By.id("asset")).getText()).isEqualTo(receipt.path("assetId").asText());
        WebElement payload = browser.findElement(By.id("payload"));
        assertThat(payload.getTagName()).as("the payload is shown").isEqualTo("pre");
        JsonNode stored = null;
        for (JsonNode e : ledgerJson("/api/payloads?assetId=" + enc(receipt.path("assetId").asText()) + "&topic="
                + enc(receipt.path("topic").asText()))) {
            stored = eventId.equals(e.path("eventId").asText()) ? e.path("payload") : stored;
        }
        assertThat(stored).as("the ledger's payload of " + eventId).isNotNull();
        assertThat(io.stowage.events.EventCodec.mapper().readTree(payload.getText())).isEqualTo(stored);
        shot("event");
        browser.get(console + "/events/no-such-event");
        assertThat(browser.findElement(By.tagName("body")).getText()).contains("404");
    }

    @Test
    @Order(11)
    void retentionIsPlannedByAReaderAndAppliedByAnOperatorOnlyForTheStepsTheConfirmationNames() throws Exception {
        String runPath = "/runs/" + DemoRunner.EXPERIMENT + "/" + DemoRunner.RUN;
        signIn(reader, runPath);
        clickAndLoad(browser.findElement(By.id("retention")));
        assertThat(browser.findElements(By.id("plan"))).as("no rule given: no plan").isEmpty();
        browser.findElement(By.id("keepLast")).sendKeys("1");
        clickAndLoad(browser.findElement(By.id("plan-retention")));
        assertThat(browser.getCurrentUrl()).endsWith(runPath + "/retention?keepLast=1&keepBest=&metric=&mode=&keepEvery="
                + "&keepInterval=&temporaryTtl=");
        assertThat(decisions()).containsExactly(Map.entry("50", "expire"), Map.entry("100", "expire"),
                Map.entry("150", "keep"));
        assertThat(browser.findElement(By.cssSelector("tr.plan-step[data-step='150']")).getText()).contains("latest");
        assertThat(browser.findElements(By.id("expire-now"))).as("a reader gets no apply").isEmpty();
        String plan = browser.getCurrentUrl().substring(console.length());

        // a reader's apply, and an operator's whose confirmation names fewer steps than the evaluation expires
        HttpClient asReader = signedIn(reader);
        HttpResponse<String> refused = post(asReader, runPath + "/retention/apply",
                "keepLast=1&expire=50%2C100&confirm=expire&csrf-token=" + csrf(asReader, get(asReader, plan)));
        assertThat(refused.statusCode()).isEqualTo(403);
        HttpClient asOperator = signedIn(operator);
        String opCsrf = csrf(asOperator, get(asOperator, plan));
        HttpResponse<String> narrower = post(asOperator, runPath + "/retention/apply",
                "keepLast=1&expire=50&confirm=expire&csrf-token=" + opCsrf);
        assertThat(narrower.statusCode()).isEqualTo(409);
        assertThat(narrower.body()).contains("would now expire step(s) [100] as well; nothing deleted");
        HttpResponse<String> noCsrf = post(asOperator, runPath + "/retention/apply", "keepLast=1&expire=50%2C100&confirm=expire");
        assertThat(noCsrf.statusCode()).as("no CSRF token").isEqualTo(400);
        assertThat(noCsrf.body()).contains("CSRF token is missing or does not match");
        HttpResponse<String> unknownRun = get(asReader, "/runs/" + DemoRunner.EXPERIMENT + "/no-such-run/retention?keepLast=1");
        assertThat(unknownRun.statusCode()).isEqualTo(404);
        assertThat(unknownRun.body()).contains("no stored step of " + DemoRunner.EXPERIMENT + "/no-such-run");
        HttpResponse<String> badRule = get(asReader, runPath + "/retention?keepLast=abc");
        assertThat(badRule.statusCode()).isEqualTo(400);
        assertThat(badRule.body()).contains("keepLast must be a whole number");
        assertThat(post(asOperator, runPath + "/retention/apply", "keepLast=1&expire=50%2C100&csrf-token=" + opCsrf)
                .statusCode()).as("no confirmation").isEqualTo(400);
        List<String> keys50 = keys(50);
        List<String> keys100 = keys(100);
        assertThat(expiredSteps()).as("nothing was expired by the refused applies").isEmpty();
        assertThat(keys50).isNotEmpty().allSatisfy(k -> assertThat(primaryHead(k)).as(k).isPresent());
        assertThat(keys100).isNotEmpty().allSatisfy(k -> assertThat(primaryHead(k)).as(k).isPresent());

        signIn(operator, plan);
        assertThat(browser.findElement(By.id("expire-steps")).getText()).isEqualTo("50,100");
        shot("retention-plan");
        clickAndLoad(browser.findElement(By.id("expire-now")));
        assertThat(browser.findElement(By.id("expired-count")).getText()).isEqualTo("2");
        assertThat(browser.findElements(By.cssSelector("li.expired-step")).stream()
                .map(e -> e.getAttribute("data-step")).toList()).containsExactly("50", "100");
        shot("retention-applied");
        assertThat(expiredSteps()).containsExactly(50L, 100L);
        assertThat(keys50).allSatisfy(k -> assertThat(primaryHead(k)).as(k + " HEAD after expiry").isEmpty());
        assertThat(keys100).allSatisfy(k -> assertThat(primaryHead(k)).as(k + " HEAD after expiry").isEmpty());
        assertThat(keys(150)).isNotEmpty().allSatisfy(k -> assertThat(primaryHead(k)).as(k).isPresent());
        browser.get(console + runPath);
        assertThat(browser.findElement(By.id("latest")).getText()).isEqualTo("step 150");
    }

    /** @return step number to decision, in the plan table's order */
    private static Map<String, String> decisions() {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (WebElement row : browser.findElements(By.cssSelector("#plan tr.plan-step"))) {
            out.put(row.getAttribute("data-step"), row.findElement(By.className("decision")).getText());
        }
        return out;
    }

    private static HttpClient signedIn(String token) throws Exception {
        HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        String csrf = csrf(http, get(http, "/signin"));
        assertThat(post(http, "/signin", "token=" + token + "&next=/&csrf-token=" + csrf).statusCode()).isEqualTo(303);
        return http;
    }

    private static List<Long> expiredSteps() throws Exception {
        List<Long> out = new java.util.ArrayList<>();
        ledgerJson("/api/checkpoints/steps?experiment=" + DemoRunner.EXPERIMENT + "&run=" + DemoRunner.RUN).path("steps")
                .forEach(s -> {
                    if (!s.path("expiredEventId").isNull() && !s.path("expiredEventId").isMissingNode()) {
                        out.add(s.path("step").asLong());
                    }
                });
        return out;
    }

    /** @return the primary store's keys of one step, as the ledger holds them */
    private static List<String> keys(long step) throws Exception {
        List<String> out = new java.util.ArrayList<>();
        ledgerJson("/api/checkpoints/steps?experiment=" + DemoRunner.EXPERIMENT + "&run=" + DemoRunner.RUN).path("steps")
                .forEach(s -> {
                    if (s.path("step").asLong() == step) {
                        s.path("asset").path("objects").forEach(o -> {
                            if ("primary".equals(o.path("store").asText())) {
                                out.add(o.path("key").asText());
                            }
                        });
                    }
                });
        return out;
    }

    private static java.util.Optional<io.stowage.store.ObjectHead> primaryHead(String key) {
        try (io.stowage.cli.store.PrimaryStore primary = new io.stowage.cli.store.PrimaryStore(platform.session().stack())) {
            return primary.head(key);
        }
    }

    @Test
    @Order(12)
    void anOperatorGetsAPresignedLinkShownOnceForAProvenModelFileAndForNothingElse() throws Exception {
        JsonNode model = null;
        for (JsonNode o : ledgerJson("/api/objects?store=primary&after=models%2F&limit=100").path("objects")) {
            if ("MODEL_FILE".equals(o.path("kind").asText()) && "OK".equals(o.path("headResult").asText())) {
                model = o;
                break;
            }
        }
        assertThat(model).as("a verified model file of the demo's promotion").isNotNull();
        String modelKey = model.path("key").asText();

        signIn(reader, "/runs");
        assertThat(browser.findElements(By.id("nav-links"))).as("a reader sees no Links").isEmpty();
        HttpClient asReader = signedIn(reader);
        assertThat(get(asReader, "/links").statusCode()).isEqualTo(403);
        assertThat(post(asReader, "/links", "key=" + enc(modelKey) + "&csrf-token=" + csrf(asReader, get(asReader, "/signin")))
                .statusCode()).isEqualTo(403);

        // a checkpoint file, from the step page's link: outside the allowed prefixes
        signIn(operator, "/runs/" + DemoRunner.EXPERIMENT + "/" + DemoRunner.RUN + "/150");
        clickAndLoad(browser.findElements(By.cssSelector("#objects a.link")).get(0));
        assertThat(browser.findElement(By.id("link-key")).getAttribute("value")).startsWith("checkpoints/");
        clickAndLoad(browser.findElement(By.id("make-link")));
        assertThat(browser.findElement(By.id("problem")).getText()).contains("is outside the prefixes allowed");
        assertThat(browser.findElements(By.id("link-url"))).isEmpty();

        browser.get(console + "/links");
        browser.findElement(By.id("link-key")).sendKeys(modelKey);
        browser.findElement(By.id("link-expires-in")).clear();
        browser.findElement(By.id("link-expires-in")).sendKeys("1h");
        clickAndLoad(browser.findElement(By.id("make-link")));
        String url = browser.findElement(By.id("link-url")).getAttribute("value");
        assertThat(browser.findElement(By.id("link-sha256")).getText()).isEqualTo(model.path("sha256").asText());
        assertThat(url).contains("X-Amz-Expires=3600").contains(modelKey);
        shot("link");
        HttpResponse<byte[]> download = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(download.statusCode()).isEqualTo(200);
        assertThat(io.stowage.events.Sha256.of(download.body())).as("the link reads the proven bytes")
                .isEqualTo(model.path("sha256").asText());

        HttpClient asOperator = signedIn(operator);
        String opCsrf = csrf(asOperator, get(asOperator, "/links"));
        HttpResponse<String> tooLong = post(asOperator, "/links", "key=" + enc(modelKey) + "&expires=8d&csrf-token=" + opCsrf);
        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(tooLong.body()).contains("at most 7 days");
        assertThat(post(asOperator, "/links", "key=" + enc(modelKey) + "&expires=1h").statusCode()).as("no CSRF token")
                .isEqualTo(400);
        HttpResponse<String> unknown = get(asOperator, "/datasets/speech-en-allison/r1/members?key="
                + enc("datasets/speech-en-allison/r1/shards/" + "0".repeat(64) + ".members.jsonl"));
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).contains("the ledger records no member manifest at primary:datasets/")
                .doesNotContain("io.stowage");
        HttpResponse<String> noRevision = get(asOperator, "/datasets/speech-en-allison/r9");
        assertThat(noRevision.statusCode()).isEqualTo(404);
        assertThat(noRevision.body()).contains("not found: /datasets/speech-en-allison/r9").doesNotContain("io.stowage");
        assertThat(get(asOperator, "/datasets/speech-en-allison/r1/members").body()).contains("needs ?key=");
        HttpResponse<String> again = post(asOperator, "/links", "key=" + enc(modelKey) + "&expires=1h&csrf-token=" + opCsrf);
        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(again.headers().firstValue("Cache-Control")).hasValue("no-store");

        // never logged or recorded: no service log and no ledger row holds either URL's signature
        List<String> signatures = new java.util.ArrayList<>();
        for (String u : List.of(url, again.body())) {
            Matcher m = Pattern.compile("X-Amz-Signature=([0-9a-f]{64})").matcher(u);
            assertThat(m.find()).as(u).isTrue();
            signatures.add(m.group(1));
        }
        try (Stream<Path> logs = Files.walk(work.resolve("logs"))) {
            for (Path log : (Iterable<Path>) logs.filter(Files::isRegularFile)::iterator) {
                String text = Files.readString(log, StandardCharsets.ISO_8859_1);
                for (String signature : signatures) {
                    assertThat(text).as(log.toString()).doesNotContain(signature);
                }
            }
        }
        var stack = platform.session().stack();
        try (java.sql.Connection db = java.sql.DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             var q = db.prepareStatement("select count(*) from ledger_event where payload like ? or payload like ?")) {
            q.setString(1, "%" + signatures.get(0) + "%");
            q.setString(2, "%" + signatures.get(1) + "%");
            try (var rows = q.executeQuery()) {
                rows.next();
                assertThat(rows.getLong(1)).isZero();
            }
        }
    }

    @Test
    @Order(13)
    void theAuditPageShowsTheLastReplayTheLedgerRecorded() throws Exception {
        HttpResponse<String> ran = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        platform.session().serviceUrl("ledger").resolve("/api/audit/replay"))
                .header("Authorization", "Bearer " + operator).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(ran.statusCode()).isEqualTo(200);
        JsonNode report = io.stowage.events.EventCodec.mapper().readTree(ran.body());

        signIn(reader, "/audit");
        String line = browser.findElement(By.id("replay")).getText();
        assertThat(line).contains("by cli-operator").contains("(everything)")
                .contains(report.path("records").asLong() + " records");
        assertThat(browser.findElement(By.id("replay-result")).getText()).isEqualTo(report.path("identical").asBoolean()
                ? "identical" : report.path("differences").size() + " row(s) differ");
        shot("audit-replay");
    }

    @Test
    @Order(14)
    void aPayloadEditedBySqlShowsTheChainBrokenAtItsSeq() throws Exception {
        var stack = platform.session().stack();
        try (java.sql.Connection db = java.sql.DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword())) {
            String victim;
            long victimSeq;
            String original;
            try (var q = db.prepareStatement("select event_id, seq, payload from ledger_event where payload like '{%' "
                    + "and not dead_letter order by seq limit 1 offset 5"); var rs = q.executeQuery()) {
                assertThat(rs.next()).isTrue();
                victim = rs.getString(1);
                victimSeq = rs.getLong(2);
                original = rs.getString(3);
            }
            assertThat(update(db, "{\"edited\":true," + original.substring(1), victim)).isEqualTo(1);
            try {
                signIn(reader, "/audit");
                assertThat(browser.findElement(By.id("chain-broken")).getText())
                        .contains("HASH CHAIN IS BROKEN").contains("seq " + victimSeq);
                assertThat(browser.findElement(By.id("chain")).getText()).startsWith("broken at seq " + victimSeq)
                        .contains("the row was changed");
                assertThat(browser.findElement(By.id("broken-event")).getText()).isEqualTo(victim);
                shot("audit-broken");
            } finally {
                update(db, original, victim);
            }
            browser.get(console + "/audit");
            assertThat(browser.findElement(By.id("chain")).getText()).as("restored, it verifies again").startsWith("intact");
        }
    }

    private static int update(java.sql.Connection db, String payload, String eventId) throws java.sql.SQLException {
        try (var u = db.prepareStatement("update ledger_event set payload = ? where event_id = ?")) {
            u.setString(1, payload);
            u.setString(2, eventId);
            return u.executeUpdate();
        }
    }

    /** @return the seq of the ledger's chain head now, read from its database */
    private static long chainHead() throws java.sql.SQLException {
        var stack = platform.session().stack();
        try (java.sql.Connection db = java.sql.DriverManager.getConnection(stack.pgJdbcUrl(), stack.pgUser(), stack.pgPassword());
             var q = db.prepareStatement("select seq from ledger_chain_head where id = 1"); var rs = q.executeQuery()) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }

    @Test
    @Order(15)
    void aMemberManifestChangedInTheStoreIsNotShown() throws Exception {
        browser.get(console + "/datasets/speech-en-allison/r1");
        String href = browser.findElements(By.cssSelector("#shards a.members-link")).get(0).getAttribute("href");
        String key = java.net.URLDecoder.decode(href.substring(href.indexOf("key=") + 4), StandardCharsets.UTF_8);
        var stack = platform.session().stack();
        try (var s3 = software.amazon.awssdk.services.s3.S3Client.builder()
                .endpointOverride(URI.create(stack.s3Endpoint()))
                .region(software.amazon.awssdk.regions.Region.of(stack.s3Region())).forcePathStyle(true)
                .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create())
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create(stack.s3AccessKey(),
                                stack.s3SecretKey()))).build()) {
            String bucket = stack.primaryBucket();
            var head = s3.headObject(b -> b.bucket(bucket).key(key));
            byte[] original = s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray();
            byte[] changed = original.clone();
            int at = new String(original, StandardCharsets.UTF_8).indexOf("\"path\":\"") + 9;
            changed[at] = (byte) (changed[at] == 'x' ? 'y' : 'x');
            s3.putObject(b -> b.bucket(bucket).key(key).metadata(head.metadata()),
                    software.amazon.awssdk.core.sync.RequestBody.fromBytes(changed));
            try {
                browser.get(href);
                assertThat(browser.findElement(By.id("problem")).getText()).contains("not the ledger's")
                        .contains("not shown");
                assertThat(browser.findElements(By.cssSelector("#members tr.member"))).isEmpty();
            } finally {
                s3.putObject(b -> b.bucket(bucket).key(key).metadata(head.metadata()),
                        software.amazon.awssdk.core.sync.RequestBody.fromBytes(original));
            }
            browser.get(href);
            assertThat(browser.findElements(By.cssSelector("#members tr.member"))).as("restored").isNotEmpty();
        }
    }

    private static JsonNode line(JsonNode cost, String kind, String id) {
        for (JsonNode l : cost.path("lines")) {
            if (kind.equals(l.path("kind").asText()) && id.equals(l.path("id").asText())) {
                return l;
            }
        }
        throw new AssertionError("no " + kind + " line " + id + " in " + cost);
    }

    private static WebElement volumeRow(String id) {
        return browser.findElement(By.cssSelector("#volumes tr.volume[data-id='" + id + "']"));
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static java.math.BigDecimal usd(String text) {
        assertThat(text).endsWith(" USD");
        return new java.math.BigDecimal(text.substring(0, text.length() - 4));
    }

    private static JsonNode ledgerJson(String path) throws Exception {
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        platform.session().serviceUrl("ledger").resolve(path))
                .header("Authorization", "Bearer " + reader).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(path).isEqualTo(200);
        return io.stowage.events.EventCodec.mapper().readTree(answer.body());
    }

    private static int releases() throws Exception {
        HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        platform.session().serviceUrl("ledger").resolve("/api/releases?limit=1000"))
                .header("Authorization", "Bearer " + reader).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(200);
        return io.stowage.events.EventCodec.mapper().readTree(answer.body()).size();
    }

    private static void signIn(String token, String next) {
        browser.manage().deleteAllCookies();
        browser.get(console + "/signin?next=" + URLEncoder.encode(next, StandardCharsets.UTF_8));
        browser.findElement(By.id("token")).sendKeys(token);
        clickAndLoad(browser.findElement(By.id("signin-button")));
        assertThat(browser.getCurrentUrl()).isEqualTo(console + next);
    }

    /**
     * Clicks something that loads a new page and waits until the old page is gone: a click returns before a form's
     * answer (and its redirect) is always loaded, and an element looked up then may still be the old page's.
     */
    private static void clickAndLoad(WebElement target) {
        WebElement page = browser.findElement(By.tagName("html"));
        target.click();
        new org.openqa.selenium.support.ui.WebDriverWait(browser, java.time.Duration.ofSeconds(30)).until(d -> gone(page));
    }

    /**
     * @return true once {@code element} no longer belongs to the loaded page. Chromium reports that either as a stale
     *         element reference or, while the new document replaces the old one, as an inspector error "Node with given
     *         id does not belong to the document"; both mean the old page is gone.
     */
    private static boolean gone(WebElement element) {
        try {
            element.isEnabled();
            return false;
        } catch (org.openqa.selenium.StaleElementReferenceException e) {
            return true;
        } catch (org.openqa.selenium.WebDriverException e) {
            if (String.valueOf(e.getMessage()).contains("does not belong to the document")) {
                return true;
            }
            throw e;
        }
    }

    private static WebElement row(Path dir) {
        return browser.findElement(By.cssSelector("tr.directory[data-path='" + dir + "']"));
    }

    private static void shot(String name) {
        try {
            Files.write(screenshots.resolve(name + ".png"), ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static HttpResponse<String> get(HttpClient http, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(console + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(HttpClient http, String path, String form) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(console + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String csrf(HttpClient http, HttpResponse<String> page) {
        Matcher m = CSRF.matcher(page.body());
        assertThat(m.find()).as("a CSRF field on " + page.uri()).isTrue();
        return m.group(1);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path source : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
    }
}
