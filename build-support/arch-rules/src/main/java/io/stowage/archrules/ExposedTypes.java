package io.stowage.archrules;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

/**
 * Produces a condition on methods that the store factories of the uploader and the verifier must meet: hand out
 * only the narrow interface (a factory returning the concrete store would give callers its other half).
 */
public final class ExposedTypes {

    private ExposedTypes() {
    }

    /**
     * @param typeName fully qualified name of the type no signature may involve, e.g. {@code io.stowage.store.ObjectWriter}
     * @return a condition failing for a method whose return or parameter types involve a subtype of {@code typeName}
     */
    public static ArchCondition<JavaMethod> exposeNoTypeAssignableTo(String typeName) {
        return new ArchCondition<>("expose no type assignable to " + typeName) {
            @Override
            public void check(JavaMethod method, ConditionEvents events) {
                boolean exposes = method.getReturnType().getAllInvolvedRawTypes().stream()
                        .anyMatch(raw -> raw.isAssignableTo(typeName))
                        || method.getParameterTypes().stream().flatMap(p -> p.getAllInvolvedRawTypes().stream())
                        .anyMatch((JavaClass raw) -> raw.isAssignableTo(typeName));
                events.add(new SimpleConditionEvent(method, !exposes,
                        method.getFullName() + (exposes ? " exposes " : " does not expose ") + typeName));
            }
        };
    }
}
