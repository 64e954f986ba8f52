package org.example.mm.app.bench;

import org.example.mm.app.Histogram;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * A JMH benchmark kept beside the tests, as real projects do. JMH is not on the test class path,
 * so this file only compiles with it: app/pom.xml leaves it out through maven-compiler-plugin's
 * testExcludes, and patchval must honour that.
 */
public class HistogramBenchmark {
    @Benchmark
    public int bucketOf() {
        return Histogram.of(new int[] {1, 5, 42}, 10).bucketOf(42);
    }
}
