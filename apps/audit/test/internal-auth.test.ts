import { describeInternalAuth } from "@hearth/test-kit";
import { auditBasics } from "./support";

describeInternalAuth(auditBasics);
