package io.stowage.archrules;

import com.tngtech.archunit.lang.ArchRule;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * Produces the layering rule every service's architecture test applies (CONVENTIONS.md: {@code domain} is pure
 * logic); consumes nothing but package names.
 */
public final class LayeringRules {

    /** Framework packages a {@code domain} class must not use. */
    static final String[] FRAMEWORKS = {"io.quarkus..", "io.smallrye..", "jakarta..", "org.eclipse.microprofile..",
            "io.vertx..", "org.apache.kafka..", "org.hibernate.."};

    private LayeringRules() {
    }

    /** @return the rule "no class in {@code ..domain..} depends on a framework type", to check over imported classes */
    public static ArchRule domainIsFrameworkFree() {
        return noClasses().that().resideInAPackage("..domain..")
                .should().dependOnClassesThat().resideInAnyPackage(FRAMEWORKS)
                .because("domain classes are pure logic, tested with plain JUnit (CONVENTIONS.md)");
    }
}
