/**
 * The Java AMP of Amp.java with one planted bug: the budget test is strict, {@code total < S}
 * instead of {@code total <= S}, so a window whose n cheapest slots cost exactly the budget is
 * refused (docs/algorithms.md: "if their total cost is at most S"). Run it as
 * {@code java -cp build AmpBuggy INSTANCE [INSTANCE ...]}; planner should catch it.
 */
public class AmpBuggy extends Amp {

    @Override
    boolean fits(long total, Long budget) {
        return budget == null || total < budget;
    }

    public static void main(String[] args) {
        System.exit(main(new AmpBuggy(), args));
    }
}
