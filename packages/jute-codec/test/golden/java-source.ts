// Generates the Java side of the golden test from our own schema: a Java expression that builds each value
// with the official jute classes (org.apache.zookeeper.{data,proto}.*), and a driver that serializes them
// with BinaryOutputArchive. Driving Java from the schema means every record kind is covered without a
// hand-kept Java twin of each value.
import type { JuteLayout } from '../../src/layouts';

const DATA_PACKAGE_RECORDS = new Set(['Id', 'ACL', 'Stat', 'ClientInfo']);

/** The fully qualified Java class of a record. */
export function javaClass(recordName: string): string {
  const pkg = DATA_PACKAGE_RECORDS.has(recordName)
    ? 'org.apache.zookeeper.data'
    : 'org.apache.zookeeper.proto';
  return `${pkg}.${recordName}`;
}

/** A Java string literal. Escapes everything outside printable ASCII by UTF-16 code unit. */
export function javaString(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    // \uXXXX is translated before lexing, so quote, backslash and line breaks need their own escapes.
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c >= 0x20 && c < 0x7f) out += value[i];
    else out += `\\u${c.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}

function javaElementType(layout: JuteLayout<unknown>): string {
  const jute = layout.jute;
  if (jute.type === 'ustring') return 'String';
  if (jute.type === 'record') return javaClass(jute.name);
  throw new Error(`no Java element type for ${jute.type}`);
}

/**
 * Java statements that build `value` as the record of `layout` and return it. Fields are set by name
 * (`setVersion(...)`), never by constructor position, so a field our schema has in the wrong place changes
 * our bytes but not Java's, and the comparison fails.
 */
export function javaBuilder(layout: JuteLayout<unknown>, value: unknown): string {
  const lines: string[] = [];
  let counter = 0;
  const build = (l: JuteLayout<unknown>, v: unknown): string => {
    const jute = l.jute;
    switch (jute.type) {
      case 'int':
        return String(v);
      case 'long':
        return `${String(v)}L`;
      case 'boolean':
        return String(v);
      case 'ustring':
        return v === null ? '(String) null' : javaString(v as string);
      case 'buffer': {
        if (v === null) return '(byte[]) null';
        const bytes = [...(v as Uint8Array)].map((b) => (b > 127 ? b - 256 : b));
        return `new byte[] {${bytes.join(', ')}}`;
      }
      case 'vector': {
        const type = javaElementType(jute.element);
        if (v === null) return `(java.util.List<${type}>) null`;
        const name = `v${counter++}`;
        lines.push(`java.util.List<${type}> ${name} = new java.util.ArrayList<${type}>();`);
        for (const item of v as unknown[]) lines.push(`${name}.add(${build(jute.element, item)});`);
        return name;
      }
      case 'record': {
        const name = `v${counter++}`;
        lines.push(`${javaClass(jute.name)} ${name} = new ${javaClass(jute.name)}();`);
        for (const field of jute.fields) {
          const property = field.property as string;
          const setter = `set${property[0]!.toUpperCase()}${property.slice(1)}`;
          lines.push(`${name}.${setter}(${build(field, (v as Record<string, unknown>)[property])});`);
        }
        return name;
      }
    }
  };
  const result = build(layout, value);
  return `${lines.join(' ')} return ${result};`;
}

/**
 * The driver. `java GoldenDriver <input>`: the input has one line per case, `index hex`, where hex is our
 * encoding. For each case it prints `index javaHex rereadHex`: the Java serialization of the value built
 * by `make(index)`, and our bytes read by Java into a fresh record and serialized again.
 */
export function javaDriver(cases: { record: string; body: string }[]): string {
  const makers = cases.map((c, i) => `  static org.apache.jute.Record make${i}() { ${c.body} }`).join('\n');
  const switchCases = cases.map((_c, i) => `      case ${i}: return make${i}();`).join('\n');
  const classes = cases.map((c, i) => `      case ${i}: return new ${javaClass(c.record)}();`).join('\n');
  return `
import java.io.*;
import java.nio.file.*;
import org.apache.jute.*;

public class GoldenDriver {
${makers}

  static org.apache.jute.Record make(int i) {
    switch (i) {
${switchCases}
      default: throw new IllegalArgumentException("no case " + i);
    }
  }

  static org.apache.jute.Record empty(int i) {
    switch (i) {
${classes}
      default: throw new IllegalArgumentException("no case " + i);
    }
  }

  static String hex(org.apache.jute.Record r) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    r.serialize(BinaryOutputArchive.getArchive(bytes), "r");
    StringBuilder out = new StringBuilder();
    for (byte b : bytes.toByteArray()) out.append(String.format("%02x", b & 0xff));
    return out.length() == 0 ? "-" : out.toString();
  }

  static byte[] unhex(String s) {
    if (s.equals("-")) return new byte[0];
    byte[] out = new byte[s.length() / 2];
    for (int i = 0; i < out.length; i++) out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
    return out;
  }

  public static void main(String[] args) throws Exception {
    StringBuilder out = new StringBuilder();
    for (String line : Files.readAllLines(Paths.get(args[0]))) {
      if (line.isEmpty()) continue;
      String[] parts = line.split(" ");
      int i = Integer.parseInt(parts[0]);
      org.apache.jute.Record reread = empty(i);
      reread.deserialize(BinaryInputArchive.getArchive(new ByteArrayInputStream(unhex(parts[1]))), "r");
      out.append(i).append(' ').append(hex(make(i))).append(' ').append(hex(reread)).append('\\n');
    }
    System.out.print(out);
  }
}
`;
}
