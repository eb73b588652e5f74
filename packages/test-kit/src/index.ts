export { startTestPostgres, type TestPostgres } from "./postgres";
export { startTestKafka, type TestKafka } from "./kafka";
export { createFreshDatabases, type FreshDatabases } from "./databases";
export { kafkaBrokerControl, type KafkaBrokerControl } from "./kafka-broker-control";
export { testPostgresAdminUrl, testKafkaBrokers, describeWithKafka } from "./infra";
export { startServiceUnderTest, newActor, contextOf, expectAppError, type ServiceUnderTest, type ServiceUnderTestOptions } from "./service-harness";
export { startOidcProvider, type OidcProviderOptions, type OidcTestClient, type OidcTestUser, type TestOidcProvider } from "./oidc-provider";
