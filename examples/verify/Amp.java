import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * AMP (Toporkov et al. 2011, section 3; "FirstFit" in Toporkov and Yemelyanov 2018) written
 * from planner's docs alone: docs/concepts.md (units, suitability, windows) and
 * docs/algorithms.md ("The single pass", "ALP and AMP").
 *
 * <p>Usage: {@code java -cp build Amp INSTANCE [INSTANCE ...]}. Prints one line per
 * job in the minimal result form of docs/verify.md (lines are told apart by their job alone:
 * {@code planner verify} gives every job of a run its own id). Plain Java 17, no libraries: a
 * small JSON reader is included,
 * and every real number is read as the exact decimal it is written as (BigDecimal).
 */
public class Amp {

    // ---------------------------------------------------------------- a tiny JSON reader

    /** Parses JSON text into maps, lists, strings, BigDecimals, booleans and null. */
    static final class Json {
        private final String s;
        private int i;

        Json(String text) {
            s = text;
        }

        static Object parse(String text) {
            Json j = new Json(text);
            Object v = j.value();
            j.space();
            if (j.i != j.s.length()) {
                throw j.error("trailing text");
            }
            return v;
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException("invalid JSON at offset " + i + ": " + what);
        }

        private void space() {
            while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
        }

        private Object value() {
            space();
            if (i >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(i);
            if (c == '{') {
                return object();
            }
            if (c == '[') {
                return array();
            }
            if (c == '"') {
                return string();
            }
            if (s.startsWith("true", i)) {
                i += 4;
                return Boolean.TRUE;
            }
            if (s.startsWith("false", i)) {
                i += 5;
                return Boolean.FALSE;
            }
            if (s.startsWith("null", i)) {
                i += 4;
                return null;
            }
            return number();
        }

        private Map<String, Object> object() {
            Map<String, Object> m = new LinkedHashMap<>();
            i++;
            space();
            if (s.charAt(i) == '}') {
                i++;
                return m;
            }
            while (true) {
                space();
                String key = string();
                space();
                if (s.charAt(i++) != ':') {
                    throw error("':' expected");
                }
                m.put(key, value());
                space();
                char c = s.charAt(i++);
                if (c == '}') {
                    return m;
                }
                if (c != ',') {
                    throw error("',' or '}' expected");
                }
            }
        }

        private List<Object> array() {
            List<Object> a = new ArrayList<>();
            i++;
            space();
            if (s.charAt(i) == ']') {
                i++;
                return a;
            }
            while (true) {
                a.add(value());
                space();
                char c = s.charAt(i++);
                if (c == ']') {
                    return a;
                }
                if (c != ',') {
                    throw error("',' or ']' expected");
                }
            }
        }

        private String string() {
            if (s.charAt(i) != '"') {
                throw error("string expected");
            }
            i++;
            StringBuilder b = new StringBuilder();
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return b.toString();
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                char e = s.charAt(i++);
                switch (e) {
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'u' -> {
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> b.append(e);
                }
            }
        }

        private BigDecimal number() {
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
            if (start == i) {
                throw error("value expected");
            }
            return new BigDecimal(s.substring(start, i));
        }

        /** Writes a JSON string literal. */
        static String quote(String text) {
            StringBuilder b = new StringBuilder("\"");
            for (char c : text.toCharArray()) {
                switch (c) {
                    case '"' -> b.append("\\\"");
                    case '\\' -> b.append("\\\\");
                    case '\n' -> b.append("\\n");
                    case '\r' -> b.append("\\r");
                    case '\t' -> b.append("\\t");
                    default -> {
                        if (c < 0x20) {
                            b.append(String.format("\\u%04x", (int) c));
                        } else {
                            b.append(c);
                        }
                    }
                }
            }
            return b.append('"').toString();
        }
    }

    // ---------------------------------------------------------------- the data (docs/concepts.md)

    record Node(String id, int order, BigDecimal performance, BigDecimal price,
                Map<String, Object> attributes) {}

    record Free(Node node, long start, long end, BigDecimal price) {}

    record Job(String id, int n, BigDecimal volume, BigDecimal minPerformance, Long budget,
               BigDecimal maxPrice, Map<String, Object> requirements, Long release,
               Long deadline) {}

    record Instance(List<Node> nodes, List<Free> slots, List<Job> jobs, boolean square) {}

    /** One of a job's suitable slots, clipped, with its rough task duration d. */
    record Slot(Node node, long start, long end, BigDecimal price, long d) {}

    /** A slot alive at a step: its cost at the pass duration and its read index. */
    record Alive(long cost, int index) {}

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return o == null ? Map.of() : (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object o) {
        return o == null ? List.of() : (List<Object>) o;
    }

    static BigDecimal real(Object o, BigDecimal fallback) {
        return o == null ? fallback : (BigDecimal) o;
    }

    static Long integer(Object o) {
        return o == null ? null : ((BigDecimal) o).longValueExact();
    }

    static Instance read(Path path) throws IOException {
        Map<String, Object> data = map(Json.parse(Files.readString(path, StandardCharsets.UTF_8)));
        List<Node> nodes = new ArrayList<>();
        Map<String, Node> byId = new LinkedHashMap<>();
        for (Object o : list(data.get("nodes"))) {
            Map<String, Object> m = map(o);
            Node node = new Node((String) m.get("id"), nodes.size(),
                    (BigDecimal) m.get("performance"), real(m.get("price"), BigDecimal.ZERO),
                    map(m.get("attributes")));
            nodes.add(node);
            byId.put(node.id(), node);
        }
        List<Free> slots = new ArrayList<>();
        if (data.containsKey("slots")) {
            for (Object o : list(data.get("slots"))) {
                Map<String, Object> m = map(o);
                slots.add(new Free(byId.get((String) m.get("node")), integer(m.get("start")),
                        integer(m.get("end")), real(m.get("price"), null)));
            }
        } else {
            List<Object> horizon = list(data.get("horizon"));
            long lo = integer(horizon.get(0));
            long hi = integer(horizon.get(1));
            for (Node node : nodes) {
                List<long[]> busy = new ArrayList<>();
                for (Object o : list(data.get("busy"))) {
                    Map<String, Object> m = map(o);
                    if (node.id().equals(m.get("node"))) {
                        busy.add(new long[] {integer(m.get("start")), integer(m.get("end"))});
                    }
                }
                busy.sort(Comparator.<long[]>comparingLong(b -> b[0]).thenComparingLong(b -> b[1]));
                long t = lo;
                for (long[] b : busy) {
                    if (b[0] > t) {
                        slots.add(new Free(node, t, b[0], null));
                    }
                    t = Math.max(t, b[1]);
                }
                if (t < hi) {
                    slots.add(new Free(node, t, hi, null));
                }
            }
        }
        List<Job> jobs = new ArrayList<>();
        for (Object o : list(data.get("jobs"))) {
            Map<String, Object> m = map(o);
            jobs.add(new Job((String) m.get("id"), (int) (long) integer(m.get("nodes")),
                    (BigDecimal) m.get("volume"), real(m.get("min_performance"), BigDecimal.ZERO),
                    integer(m.get("budget")), real(m.get("max_price"), null),
                    map(m.get("requirements")), integer(m.get("release")),
                    integer(m.get("deadline"))));
        }
        return new Instance(nodes, slots, jobs, "square".equals(data.get("geometry")));
    }

    // ---------------------------------------------------------------- units (docs/concepts.md)

    static long duration(BigDecimal volume, BigDecimal performance) {
        return Math.max(1, volume.divide(performance, 0, RoundingMode.CEILING).longValueExact());
    }

    static long cost(BigDecimal price, long quanta) {
        return price.multiply(BigDecimal.valueOf(quanta))
                .setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /** S: the budget, else floor(C * V * n), else null (unbounded). */
    static Long budget(Job job) {
        if (job.budget() != null) {
            return job.budget();
        }
        if (job.maxPrice() != null) {
            return job.maxPrice().multiply(job.volume()).multiply(BigDecimal.valueOf(job.n()))
                    .setScale(0, RoundingMode.FLOOR).longValueExact();
        }
        return null;
    }

    /** AMP's budget test: the n cheapest fit when their total is at most S. */
    boolean fits(long total, Long budget) {
        return budget == null || total <= budget;
    }

    static boolean suits(Node node, Job job) {
        if (node.performance().compareTo(job.minPerformance()) < 0) {
            return false;
        }
        for (Map.Entry<String, Object> r : job.requirements().entrySet()) {
            if (!node.attributes().containsKey(r.getKey())) {
                return false;
            }
            Object have = node.attributes().get(r.getKey());
            Object wanted = r.getValue();
            if (wanted instanceof String) {
                if (!wanted.equals(have)) {
                    return false;
                }
            } else if (!(have instanceof BigDecimal h) || h.compareTo((BigDecimal) wanted) < 0) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- the pass (docs/algorithms.md)

    /** The job's slot list: suitable, clipped to release and deadline, by (clipped start, node). */
    static List<Slot> jobSlots(Instance inst, Job job) {
        List<Slot> out = new ArrayList<>();
        for (Free f : inst.slots()) {
            if (!suits(f.node(), job)) {
                continue;
            }
            long lo = job.release() == null ? f.start() : Math.max(f.start(), job.release());
            long hi = job.deadline() == null ? f.end() : Math.min(f.end(), job.deadline());
            if (lo >= hi) {
                continue;
            }
            BigDecimal price = f.price() == null ? f.node().price() : f.price();
            out.add(new Slot(f.node(), lo, hi, price, duration(job.volume(), f.node().performance())));
        }
        out.sort(Comparator.comparingLong(Slot::start).thenComparingInt(s -> s.node().order()));
        return out;
    }

    /** The window: T and the chosen read indices, or null. */
    record Found(long start, List<Integer> chosen) {}

    /**
     * AMP: at every formed step, the n cheapest alive slots by (cost, read index) if they fit S.
     * Square geometry: one pass per performance level, fastest first; a level stops at its first
     * fitting step or once T reaches the earliest start found so far (the faster level wins ties).
     */
    Found amp(Instance inst, Job job, List<Slot> slots) {
        Long budget = budget(job);
        List<BigDecimal> levels = new ArrayList<>();
        if (inst.square()) {
            TreeSet<BigDecimal> perfs = new TreeSet<>(Comparator.reverseOrder());
            for (Slot s : slots) {
                perfs.add(s.node().performance());
            }
            levels.addAll(perfs);
        } else {
            levels.add(null);
        }
        Found best = null;
        for (BigDecimal level : levels) {
            long pass = level == null ? 0 : duration(job.volume(), level);
            for (int i = 0; i < slots.size(); i++) {
                long t = slots.get(i).start();
                if (best != null && t >= best.start()) {
                    break;
                }
                List<Alive> alive = new ArrayList<>();
                boolean exact = level == null;
                for (int j = 0; j <= i; j++) {
                    Slot s = slots.get(j);
                    if (level != null && s.node().performance().compareTo(level) < 0) {
                        continue;
                    }
                    long d = level == null ? s.d() : pass;
                    if (s.end() - t >= d) {
                        alive.add(new Alive(cost(s.price(), d), j));
                        exact |= level != null && s.node().performance().compareTo(level) == 0;
                    }
                }
                if (alive.size() < job.n() || !exact) {
                    continue;
                }
                alive.sort(Comparator.comparingLong(Alive::cost).thenComparingInt(Alive::index));
                long total = 0;
                List<Integer> chosen = new ArrayList<>();
                for (Alive a : alive.subList(0, job.n())) {
                    total += a.cost();
                    chosen.add(a.index());
                }
                if (fits(total, budget)) {
                    best = new Found(t, chosen);
                    break;
                }
            }
        }
        return best;
    }

    // ---------------------------------------------------------------- output (docs/formats.md)

    static String window(Instance inst, List<Slot> slots, Found found) {
        List<Slot> chosen = new ArrayList<>();
        for (int i : found.chosen()) {
            chosen.add(slots.get(i));
        }
        chosen.sort(Comparator.comparingInt(s -> s.node().order()));
        long longest = 0;
        for (Slot s : chosen) {
            longest = Math.max(longest, s.d());
        }
        StringBuilder b = new StringBuilder("{\"start\": ").append(found.start())
                .append(", \"placements\": [");
        for (int k = 0; k < chosen.size(); k++) {
            Slot s = chosen.get(k);
            long length = inst.square() ? longest : s.d();
            b.append(k == 0 ? "" : ", ").append("{\"node\": ").append(Json.quote(s.node().id()))
                    .append(", \"start\": ").append(found.start())
                    .append(", \"end\": ").append(found.start() + length).append('}');
        }
        return b.append("]}").toString();
    }

    void run(String[] args, PrintStream out) throws IOException {
        for (String path : args) {
            Instance inst = read(Path.of(path));
            for (Job job : inst.jobs()) {
                List<Slot> slots = jobSlots(inst, job);
                Found found = amp(inst, job, slots);
                StringBuilder line = new StringBuilder("{\"job\": ").append(Json.quote(job.id()));
                if (found == null) {
                    line.append(", \"status\": \"not_found\"}");
                } else {
                    line.append(", \"window\": ").append(window(inst, slots, found)).append('}');
                }
                out.println(line);
            }
        }
        out.flush();
    }

    static int main(Amp amp, String[] args) {
        if (args.length == 0) {
            System.err.println("usage: java -cp build Amp INSTANCE [INSTANCE ...]");
            return 2;
        }
        try {
            PrintStream out = new PrintStream(new BufferedOutputStream(
                    new FileOutputStream(FileDescriptor.out), 1 << 16), false, StandardCharsets.UTF_8);
            amp.run(args, out);
            return 0;
        } catch (IOException | RuntimeException e) {
            System.err.println("amp: " + e.getMessage());
            return 2;
        }
    }

    public static void main(String[] args) {
        System.exit(main(new Amp(), args));
    }
}
