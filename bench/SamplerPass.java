import dev.runboard.process.ResourceSampler;
import java.util.Arrays;
import java.util.List;

/**
 * Cost of one resource-sampler pass over /proc (all processes: stat for each, environ and cmdline
 * once per new process). Run: ./mvnw -B -q package -DskipTests &&
 * java -cp 'target/classes:target/lib/*' bench/SamplerPass.java
 */
public class SamplerPass {
    public static void main(String[] args) {
        ResourceSampler sampler = new ResourceSampler("RUNBOARD_SESSION");
        List<ResourceSampler.Target> targets = List.of(new ResourceSampler.Target("bench", ProcessHandle.current().pid()));
        ResourceSampler.Pass first = sampler.sample(targets);
        long[] ns = new long[200];
        int processes = 0;
        for (int i = 0; i < ns.length; i++) {
            ResourceSampler.Pass p = sampler.sample(targets);
            ns[i] = p.costNanos();
            processes = p.processesRead();
        }
        Arrays.sort(ns);
        System.out.printf("first pass (reads every environ once): %.2f ms%n", first.costNanos() / 1e6);
        System.out.printf("steady passes over %d processes: median %.2f ms, p90 %.2f ms, min %.2f ms%n",
                processes, ns[ns.length / 2] / 1e6, ns[ns.length * 9 / 10] / 1e6, ns[0] / 1e6);
    }
}
