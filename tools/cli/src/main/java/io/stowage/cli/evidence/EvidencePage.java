package io.stowage.cli.evidence;

import java.util.List;

/**
 * Renders an {@link EvidenceExport} as {@code index.html}: one self-contained page (inline CSS, no script, no
 * external URL, a Content-Security-Policy that forbids loading anything) with a table per asset. Every value is
 * HTML-escaped ({@link #escape}), so an asset id or key can never become markup.
 */
public final class EvidencePage {
    private static final String STYLE = "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}"
            + "h1{font-size:1.4em}h2{font-size:1.1em;margin-top:2em;word-break:break-all}"
            + "table{border-collapse:collapse;width:100%}th,td{border:1px solid #ccc;padding:.3em .5em;text-align:left;"
            + "vertical-align:top}th{background:#f3f3f3}td.n{text-align:right}code{font-size:12px;word-break:break-all}"
            + ".ok{color:#176f2c}.bad{color:#b00020;font-weight:bold}";

    private EvidencePage() {
    }

    /** @return the whole page, UTF-8 text */
    public static String render(EvidenceExport export) {
        StringBuilder html = new StringBuilder(4096);
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n")
                .append("<title>Stowage evidence</title>\n<style>").append(STYLE).append("</style>\n</head>\n<body>\n")
                .append("<h1>Stowage evidence</h1>\n<p>Format <code>").append(escape(export.format()))
                .append("</code>, generated ").append(escape(String.valueOf(export.generatedAt()))).append(": ")
                .append(export.assets().size()).append(" asset(s), ").append(export.objectCount()).append(" object(s), ")
                .append(export.bytes()).append(" bytes. The same data as JSON: <code>evidence.json</code>.</p>\n");
        export.assets().forEach(a -> asset(html, a));
        return html.append("</body>\n</html>\n").toString();
    }

    /** @return {@code text} with {@code & < > " '} as character references; null as the empty string */
    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    private static void asset(StringBuilder html, EvidenceExport.Asset asset) {
        html.append("<section>\n<h2>").append(escape(asset.assetId())).append("</h2>\n<p>")
                .append(escape(asset.kind())).append(asset.sealed() ? ", sealed" : ", not sealed")
                .append(asset.keyCheckpoint() ? ", key checkpoint" : "")
                .append(asset.manifestSha256() == null ? "" : ", manifest SHA-256 <code>" + escape(asset.manifestSha256()) + "</code>")
                .append(", ").append(asset.objects().size()).append(" object(s), ").append(asset.bytes()).append(" bytes</p>\n")
                .append("<table>\n<thead><tr><th>store</th><th>key</th><th>kind</th><th>bytes</th><th>SHA-256</th>")
                .append("<th>HEAD</th><th>full read</th></tr></thead>\n<tbody>\n");
        for (EvidenceExport.StoredObject o : asset.objects()) {
            html.append("<tr><td>").append(escape(o.store())).append("</td><td><code>").append(escape(o.key()))
                    .append("</code></td><td>").append(escape(o.kind())).append("</td><td class=\"n\">").append(o.bytes())
                    .append("</td><td><code>").append(escape(o.sha256())).append("</code></td>")
                    .append(verification(o.verifications(), "HEAD")).append(verification(o.verifications(), "FULL_READ"))
                    .append("</tr>\n");
        }
        html.append("</tbody>\n</table>\n</section>\n");
    }

    private static String verification(List<EvidenceExport.Verification> verifications, String method) {
        return verifications.stream().filter(v -> method.equals(v.method())).findFirst()
                .map(v -> "<td><span class=\"" + ("OK".equals(v.result()) ? "ok" : "bad") + "\">" + escape(v.result())
                        + "</span><br>" + escape(v.time() == null ? "time unknown" : v.time().toString()) + "</td>")
                .orElse("<td>not verified</td>");
    }
}
