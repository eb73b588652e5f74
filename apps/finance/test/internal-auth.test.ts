import { describeInternalAuth } from "@hearth/test-kit";
import { financeBasics } from "./support";

describeInternalAuth(financeBasics);
