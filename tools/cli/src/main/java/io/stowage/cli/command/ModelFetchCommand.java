package io.stowage.cli.command;

import io.stowage.cli.CliException;
import io.stowage.cli.Inputs;
import io.stowage.cli.NameArguments;
import io.stowage.cli.model.ModelFetcher;
import io.stowage.cli.output.JsonOut;
import io.stowage.cli.output.Progress;
import io.stowage.cli.platform.Session;
import io.stowage.cli.platform.StowageHome;
import io.stowage.cli.store.PrimaryStore;
import io.stowage.events.ObjectKeys;
import io.stowage.events.manifest.MemberEntry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code stowage model fetch --model M --revision R --to DIR}: download and verify one stored model revision. */
@Command(name = "fetch", mixinStandardHelpOptions = true,
        description = {"Download a stored model revision into a new or empty directory, several files at once,"
                + " each SHA-256 checked while streaming; files are renamed into place only when every one matches."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:fetched and verified", "1:not stored, store unreachable, or a SHA-256 mismatch",
                "2:bad input (a name, a non-empty --to)"})
final class ModelFetchCommand implements Callable<Integer> {
    @Option(names = "--model", required = true, description = "Model name (ASCII letters, digits, '.', '_', '-').")
    String model;
    @Option(names = "--revision", required = true, description = "Revision name (same characters).")
    String revision;
    @Option(names = "--to", required = true, paramLabel = "DIR", description = "Target directory: missing or empty.")
    Path to;
    @Option(names = "--parallel", defaultValue = "4", description = "Downloads at once (default ${DEFAULT-VALUE}).")
    int parallel;
    @Option(names = "--json", description = "Print {\"asset\",\"dir\",\"license\",\"source\",\"files\":[{\"path\",\"bytes\",\"sha256\",\"key\"}]} as one line.")
    boolean json;

    @Override
    public Integer call() {
        NameArguments.require("--model", model);
        NameArguments.require("--revision", revision);
        if (parallel < 1) {
            throw new CliException(CliException.USAGE, "--parallel must be at least 1");
        }
        Session session = Session.readFrom(StowageHome.fromEnvironment().session());
        ModelFetcher.Fetched fetched;
        try (PrimaryStore store = new PrimaryStore(session.stack())) {
            fetched = new ModelFetcher(store, parallel).fetch(model, revision, to);
        }
        if (json) {
            List<Map<String, Object>> files = new ArrayList<>();
            for (MemberEntry file : fetched.manifest().files()) {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("path", file.path());
                one.put("bytes", file.bytes());
                one.put("sha256", file.sha256());
                one.put("key", ObjectKeys.modelFile(model, revision, file.sha256(), file.path()));
                files.add(one);
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("asset", "model/" + model + "/" + revision);
            out.put("dir", fetched.dir().toString());
            out.put("license", fetched.manifest().license());
            out.put("source", fetched.manifest().source());
            out.put("files", files);
            JsonOut.print(out);
        } else {
            new Progress(System.err, false).step("fetched model/" + model + "/" + revision + " ("
                    + Inputs.count(fetched.manifest().files().size(), "file") + ", " + fetched.manifest().totalBytes()
                    + " bytes, every SHA-256 verified; licence " + fetched.manifest().license() + ")");
            System.out.println(fetched.dir());
        }
        return 0;
    }
}
