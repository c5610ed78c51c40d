/**
 * A payload class as a Java service would have one: Jackson writes it as {"@class":"Details",...}, and a
 * ServiceDiscovery<Details> can read only nodes whose payload names this class.
 */
public class Details {
    public String zone;
    public int weight;

    public Details() {}

    public Details(String zone, int weight) {
        this.zone = zone;
        this.weight = weight;
    }
}
