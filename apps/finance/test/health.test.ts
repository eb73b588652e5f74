import { describeServiceHealth } from "@hearth/test-kit";
import { financeBasics } from "./support";

describeServiceHealth(financeBasics);
