// Generates digest-md5-java.json: full DIGEST-MD5 exchanges between the JDK's own SASL client and server
// (javax.security.sasl, as ZooKeeper uses them), qop=auth, service zookeeper, host zk-sasl-md5.
// Run: javac GenDigest.java && java -Dfile.encoding=UTF-8 GenDigest > digest-md5-java.json
import javax.security.sasl.*;
import javax.security.auth.callback.*;
import java.util.*;
import java.nio.charset.StandardCharsets;

public class GenDigest {
  static String q(String s){ return "\"" + s.replace("\\","\\\\").replace("\"","\\\"") + "\""; }
  public static void main(String[] a) throws Exception {
    String[][] cases = { {"bob","secret",""}, {"bob","pässwörd",""}, {"jürgen","密码",""}, {"bob","secret","admin"} };
    StringBuilder out = new StringBuilder("[\n");
    for (int i = 0; i < cases.length; i++) {
      final String user = cases[i][0], pass = cases[i][1], authz = cases[i][2];
      Map<String,String> props = new HashMap<>(); props.put(Sasl.QOP, "auth");
      SaslServer server = Sasl.createSaslServer("DIGEST-MD5", "zookeeper", "zk-sasl-md5", props, cbs -> {
        for (Callback cb : cbs) {
          if (cb instanceof PasswordCallback) ((PasswordCallback) cb).setPassword(pass.toCharArray());
          else if (cb instanceof AuthorizeCallback) ((AuthorizeCallback) cb).setAuthorized(true);
          else if (cb instanceof RealmCallback) ((RealmCallback) cb).setText(((RealmCallback) cb).getDefaultText());
        }
      });
      SaslClient client = Sasl.createSaslClient(new String[]{"DIGEST-MD5"}, authz.isEmpty() ? null : authz, "zookeeper", "zk-sasl-md5", props, cbs -> {
        for (Callback cb : cbs) {
          if (cb instanceof NameCallback) ((NameCallback) cb).setName(user);
          else if (cb instanceof PasswordCallback) ((PasswordCallback) cb).setPassword(pass.toCharArray());
          else if (cb instanceof RealmCallback) ((RealmCallback) cb).setText(((RealmCallback) cb).getDefaultText());
        }
      });
      byte[] challenge = server.evaluateResponse(new byte[0]);
      byte[] response = client.evaluateChallenge(challenge);
      byte[] rspauth = server.evaluateResponse(response);
      client.evaluateChallenge(rspauth);
      if (!server.isComplete() || !client.isComplete()) throw new RuntimeException("incomplete");
      out.append("  {\"username\": ").append(q(user)).append(", \"password\": ").append(q(pass))
         .append(", \"authzid\": ").append(q(authz))
         .append(",\n   \"challenge\": ").append(q(new String(challenge, StandardCharsets.UTF_8)))
         .append(",\n   \"response\": ").append(q(new String(response, StandardCharsets.UTF_8)))
         .append(",\n   \"rspauth\": ").append(q(new String(rspauth, StandardCharsets.UTF_8))).append("}")
         .append(i + 1 < cases.length ? ",\n" : "\n");
    }
    out.append("]\n");
    System.out.print(out);
  }
}
