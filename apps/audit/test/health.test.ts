import { describeServiceHealth } from "@hearth/test-kit";
import { auditBasics } from "./support";

describeServiceHealth(auditBasics);
