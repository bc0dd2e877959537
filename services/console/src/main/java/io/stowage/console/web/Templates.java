package io.stowage.console.web;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.stowage.console.domain.FreeRow;
import io.stowage.console.domain.Release;

import java.util.List;

/** The console's pages ({@code src/main/resources/templates/<name>.html}), type-checked at build time. */
@CheckedTemplate
final class Templates {
    private Templates() {
    }

    static native TemplateInstance signin(String error, String next);

    static native TemplateInstance overview(Views.Who who, Views.Overview o);

    static native TemplateInstance datasets(Views.Who who, List<Views.DatasetRow> datasets);

    static native TemplateInstance dataset(Views.Who who, Views.DatasetRow dataset);

    static native TemplateInstance revision(Views.Who who, Views.Revision r);

    static native TemplateInstance runs(Views.Who who, List<Views.RunRow> runs);

    static native TemplateInstance run(Views.Who who, Views.Run run);

    static native TemplateInstance step(Views.Who who, Views.StepDetail s);

    static native TemplateInstance retention(Views.Who who, Views.RetentionPage r);

    static native TemplateInstance links(Views.Who who, Views.LinkPage l);

    static native TemplateInstance members(Views.Who who, Views.Members m);

    static native TemplateInstance releases(Views.Who who, List<Release> releases);

    static native TemplateInstance release(Views.Who who, Release r);

    static native TemplateInstance free(Views.Who who, List<FreeRow> rows);

    static native TemplateInstance volumes(Views.Who who, Views.Volumes v);

    static native TemplateInstance audit(Views.Who who, Views.Audit a);

    static native TemplateInstance event(Views.Who who, Views.Event e);

    static native TemplateInstance problem(Views.Who who, Views.Problem p);
}
