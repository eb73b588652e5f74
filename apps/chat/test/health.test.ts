import { describeServiceHealth } from "@hearth/test-kit";
import { chatBasics } from "./support";

describeServiceHealth(chatBasics);
