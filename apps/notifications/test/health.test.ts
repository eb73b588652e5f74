import { describeServiceHealth } from "@hearth/test-kit";
import { notificationsBasics } from "./support";

describeServiceHealth(notificationsBasics);
