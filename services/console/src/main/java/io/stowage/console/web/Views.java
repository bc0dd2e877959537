package io.stowage.console.web;

import io.quarkus.qute.TemplateData;
import io.stowage.console.domain.EvidenceLink;
import io.stowage.console.domain.Sizes;

import java.time.Instant;
import java.util.List;

/** What the pages render: small records built from the services' answers, never a token or a credential. */
public final class Views {
    private Views() {
    }

    /** The signed-in person as the page header shows them. */
    @TemplateData
    public record Who(String name, String role, boolean operator) {
    }

    /** A name and a value, e.g. a provenance field or a metric. */
    @TemplateData
    public record Field(String name, String value) {
    }

    /** One store on the overview: objects, bytes and the scrub's coverage over 30 days. */
    @TemplateData
    public record StoreRow(String store, long objects, long bytes, long neverReRead, long reReadInPeriod, long overdue,
                           String nextDueKey, String nextDueSince) {
        public String bytesText() {
            return Sizes.human(bytes);
        }

        /** @return the share of objects re-read in the period, 0 to 100 */
        public long coveredPercent() {
            return objects == 0 ? 100 : Math.round(100.0 * reReadInPeriod / objects);
        }
    }

    /** The overview page. */
    @TemplateData
    public record Overview(long events, long assets, long objects, long objectsVerified, long objectsFullRead,
                           long gatesPassed, long gatesDenied, long releases, long deadLetters, String lag,
                           List<StoreRow> stores, long volumes, long datasets, long runs, List<AlertRow> alerts,
                           String alertsProblem) {
    }

    /**
     * One of the overview's latest alerts, in the ledger's words.
     *
     * @param event the ledger event it comes from, with its page's address
     * @param time  the event's time (ISO-8601), or a dash
     * @param kind  e.g. {@code release-blocked}, {@code verify-MISMATCH}, {@code dead-letter}
     */
    @TemplateData
    public record AlertRow(io.stowage.console.domain.EvidenceLink event, String time, String topic, String kind,
                           String subject, String detail) {
    }

    /** A dataset name with its revisions. */
    @TemplateData
    public record DatasetRow(String name, List<String> revisions) {
    }

    /** A run with its stored steps. */
    @TemplateData
    public record RunRow(String experiment, String run, int steps) {
    }

    /** One copy of an object in one store and its newest verification results. */
    @TemplateData
    public record Copy(String store, String bucket, String key, String head, String fullRead, String headAt,
                       String fullReadAt) {
    }

    /** One recorded verification of an object ({@code object.verified}). */
    @TemplateData
    public record Verification(String time, String store, String key, String method, String result, String detail) {
        public boolean ok() {
            return "OK".equals(result);
        }
    }

    /** One shard of a dataset revision. */
    @TemplateData
    public record Shard(int index, String key, String sha256, long bytes, String memberCount, String membersKey,
                        String membersSha256, List<Copy> copies, List<Verification> verifications) {
        public String bytesText() {
            return Sizes.human(bytes);
        }
    }

    /** A dataset revision page. */
    @TemplateData
    public record Revision(String name, String revision, String assetId, boolean sealed, String license, String source,
                           String manifestSha256, List<Shard> shards, List<Copy> others) {
    }

    /** One step row of a run page. */
    @TemplateData
    public record Step(long step, int files, long bytes, String metrics, String tags, boolean pinned, boolean key,
                       boolean latest, boolean verified, String copies, String published, boolean expired) {
        public String bytesText() {
            return Sizes.human(bytes);
        }
    }

    /** A run page. */
    @TemplateData
    public record Run(String experiment, String run, List<Step> steps, String latest) {
    }

    /** A step page: provenance, metrics, objects and their verification history. */
    @TemplateData
    public record StepDetail(String experiment, String run, long step, String assetId, boolean key, boolean pinned,
                             List<Field> provenance, List<Field> metrics, List<Copy> objects,
                             List<Verification> verifications) {
    }

    /**
     * One volume on {@code /volumes}: its record from the provider-adapter and its cost line.
     *
     * @param ttlLeft  its time to live left at the cost report's instant ({@code 59m 12s left}, {@code expired …}, {@code none})
     * @param blockers what the gate named as blocking its newest release (the provider-adapter's record)
     * @param alert    the detail of its newest {@code provider.alert} in the ledger when it is BLOCKED, else null
     */
    @TemplateData
    public record VolumeRow(String id, String name, String provider, String purpose, String size, String path,
                            String state, String createdAt, String expiresAt, String ttlLeft, String capUsd,
                            String runId, String costUsd, String monthlyUsd, String releaseReason,
                            List<String> blockers, String alert) {
    }

    /** One pod on {@code /volumes}: running or terminated (and why), its caps and its cost line. */
    @TemplateData
    public record PodRow(String id, String name, String provider, String gpu, String costPerHourUsd, String state,
                         String createdAt, String expiresAt, String ttlLeft, String capUsd, String runId, String costUsd,
                         String monthlyUsd) {
    }

    /** One run cap on {@code /volumes}: its caps, when it asked for a checkpoint and stopped, what its resources cost. */
    @TemplateData
    public record RunCapRow(String runId, String capUsd, String maxTime, String capGpuHours, String createdAt, String checkpointRequestedAt,
                            String triggeredAt, String costUsd) {
    }

    /**
     * The {@code /volumes} page. Amounts are US dollars as the provider-adapter's cost report gives them.
     *
     * @param archivedBytes the primary store's bytes as the ledger counts them
     */
    @TemplateData
    public record Volumes(String at, List<VolumeRow> volumes, List<PodRow> pods, List<RunCapRow> runs,
                          String totalCostUsd, String liveMonthlyUsd, long archivedBytes, String storeMonthlyUsd,
                          String onVolumeMonthlyUsd, String monthlySavingUsd) {
        public String archivedText() {
            return Sizes.human(archivedBytes);
        }
    }

    /** One milestone archive ({@code archive.published}) as the ledger recorded it. */
    @TemplateData
    public record Archive(String archivedAsset, String time, String archivePath, long bytes, String sha256,
                          long eventCount, long firstSeq, long lastSeq) {
        public String bytesText() {
            return Sizes.human(bytes);
        }
    }

    /**
     * The {@code /audit} page: the hash chain recomputed now and the milestone archives.
     *
     * @param rows rows the ledger read up to its chain head; when {@code ok} the chain is exactly seq 1 to {@code rows}
     *             (a gap or a head elsewhere is a break), so {@code rows} is the head's seq
     */
    @TemplateData
    public record Audit(long rows, boolean ok, String firstBrokenSeq, String firstBrokenEventId, String reason,
                        List<Archive> archives, int assetsAsked, Replay lastReplay) {
        /** @return the seq the chain verified through: the head's, when intact */
        public long verifiedThrough() {
            return rows;
        }

        /** @return the console's address of the first broken event, null when none is named */
        public String brokenEventHref() {
            return firstBrokenEventId == null ? null : EvidenceLink.of(firstBrokenEventId).href();
        }
    }

    /**
     * One ledger event on {@code /events/ID}.
     *
     * @param payload its payload as indented JSON, null when not found among the asset's first 1,000 on its topic
     */
    @TemplateData
    public record Event(String eventId, String topic, String assetId, String type, String time, boolean deadLetter,
                        String reason, String payload) {
    }

    /** A problem to show instead of data. */
    @TemplateData
    public record Problem(int status, String message) {
    }

    /**
     * One step of a retention plan.
     *
     * @param decision "keep" or "expire"
     * @param keptBy   the rules that keep it, comma-separated (e.g. {@code latest, keep-last}); empty when expired
     * @param stores   per store its objects and bytes, e.g. {@code primary 3 objects, 12.0 MiB}
     */
    @TemplateData
    public record PlanStep(long step, String decision, String keptBy, boolean verified, String metrics, String tags,
                           String stores) {
        public boolean expire() {
            return "expire".equals(decision);
        }
    }

    /**
     * A run's retention page: the policy form and, once rules are given, the plan evaluated now by the provider-adapter,
     * and after an apply its outcome.
     *
     * @param form    the rules as typed ({@link io.stowage.console.domain.RetentionForm})
     * @param planned true when a plan was evaluated (some rule given)
     * @param latest  the step latest.json names, or a dash
     * @param expire  the steps the plan expires, comma-separated (what an apply confirms), empty when none
     * @param freed   per store what expiring frees, e.g. {@code primary 6 objects, 24.0 MiB}
     * @param outcome the apply's outcome; null before an apply
     */
    @TemplateData
    public record RetentionPage(String experiment, String run, io.stowage.console.domain.RetentionForm form,
                                boolean planned, String latest, String evaluatedAt, List<PlanStep> steps, String expire,
                                int expireCount, String freed, RetentionOutcome outcome) {
    }

    /**
     * What an apply did: the decision's id, each expired step with its objects and bytes (from its
     * {@code checkpoint.expired}), and each refusal.
     */
    @TemplateData
    public record RetentionOutcome(String decisionId, List<Field> expired, List<Field> refused) {
    }

    /**
     * The links page: the form's values and, after the verifier made one, the link.
     *
     * @param expires the lifetime as typed, e.g. {@code 24h}
     * @param link    null before a link was made
     */
    @TemplateData
    public record LinkPage(String key, String store, String expires, Link link) {
    }

    /** A presigned link as the verifier made it: the URL, when it stops working, and what it reads. */
    @TemplateData
    public record Link(String url, String expiresAt, String sha256, long bytes) {
        public String bytesText() {
            return Sizes.human(bytes);
        }
    }

    /**
     * The newest audit replay the ledger recorded.
     *
     * @param scope       the compared asset-id text, or "everything"
     * @param differences rows on which the replay and the live projections disagreed
     */
    @TemplateData
    public record Replay(String finishedAt, String requestedBy, String scope, boolean identical, boolean liveCaughtUp,
                         long records, long events, int differences, String seconds) {
    }

    /** One member of a shard, as its member manifest lists it. */
    @TemplateData
    public record Member(String path, long bytes, String sha256) {
    }

    /**
     * A member manifest as the verifier read it: its key, SHA-256 (the ledger's, matched by the read), size, how many
     * members it lists, and the first of them.
     */
    @TemplateData
    public record Members(String name, String revision, String key, String sha256, long bytes, int total,
                          List<Member> members) {
    }

    /** {@code Instant} as the pages print it, or a dash. */
    static String time(Instant t) {
        return t == null ? "—" : t.toString();
    }
}
