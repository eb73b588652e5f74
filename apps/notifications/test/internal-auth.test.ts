import { describeInternalAuth } from "@hearth/test-kit";
import { notificationsBasics } from "./support";

describeInternalAuth(notificationsBasics);
