// Prints what the real Flink computes, for engine/analysis/key-groups/keygroups.flink.test.ts.
// Input (argv[0]): a file with one Base64-encoded UTF-8 key per line. argv[1]: comma-separated parallelisms.
// argv[2]: a file with one Base64-encoded operator uid per line.
// Output: "K <index per parallelism, comma-separated>" per key, then "U <hex>" per uid.
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Base64;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

public class KeyGroupParity {
    public static void main(String[] args) throws Exception {
        Class<?> kgra = Class.forName("org.apache.flink.runtime.state.KeyGroupRangeAssignment");
        java.lang.reflect.Method assign = kgra.getMethod("assignKeyToParallelOperator", Object.class, int.class, int.class);
        String[] ps = args[1].split(",");
        StringBuilder out = new StringBuilder();
        for (String line : Files.readAllLines(Paths.get(args[0]), StandardCharsets.UTF_8)) {
            if (line.isEmpty() && false) continue;
            String key = new String(Base64.getDecoder().decode(line), StandardCharsets.UTF_8);
            out.append("K ");
            for (int i = 0; i < ps.length; i++) {
                if (i > 0) out.append(',');
                out.append(assign.invoke(null, key, 128, Integer.parseInt(ps[i])));
            }
            out.append('\n');
        }
        Object hashFunction = guavaMurmur3_128();
        java.lang.reflect.Method hashString = hashFunction.getClass().getMethod("hashString", CharSequence.class, java.nio.charset.Charset.class);
        hashString.setAccessible(true);
        for (String line : Files.readAllLines(Paths.get(args[2]), StandardCharsets.UTF_8)) {
            String uid = new String(Base64.getDecoder().decode(line), StandardCharsets.UTF_8);
            out.append("U ").append(hashString.invoke(hashFunction, uid, StandardCharsets.UTF_8).toString()).append('\n');
        }
        System.out.print(out);
    }

    /** Flink bundles Guava shaded under org.apache.flink.shaded.guavaNN: find it on the class path. */
    private static Object guavaMurmur3_128() throws Exception {
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (!entry.endsWith(".jar")) continue;
            try (JarFile jar = new JarFile(entry)) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    String name = entries.nextElement().getName();
                    if (name.startsWith("org/apache/flink/shaded/guava") && name.endsWith("/com/google/common/hash/Hashing.class")) {
                        Class<?> hashing = Class.forName(name.replace('/', '.').replaceAll("\\.class$", ""));
                        return hashing.getMethod("murmur3_128", int.class).invoke(null, 0);
                    }
                }
            }
        }
        throw new IllegalStateException("No shaded Guava Hashing class on the Flink class path");
    }
}
