import { describeInternalAuth } from "@hearth/test-kit";
import { chatBasics } from "./support";

describeInternalAuth(chatBasics);
