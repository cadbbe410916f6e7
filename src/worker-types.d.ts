// Lets `env` and `exports` from "cloudflare:workers" carry this project's types (tests use both).
declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("./index");
    durableNamespaces: "FieldObject" | "IdentityObject" | "RegistryObject" | "HistoryObject" | "RelayObject";
  }
  // An interface cannot extend an import() type directly (skipLibCheck hid that): go through an alias.
  type ProjectEnv = import("./env").Env;
  interface Env extends ProjectEnv {}
}

// The Durable Object namespaces of wrangler.toml, typed by their classes the way `wrangler types`
// declares them: ambient, so src/env.ts types `Env` without importing the classes (which import
// modules that import `Env`). A new Durable Object adds its line here and its binding in src/env.ts.
type FieldObjectNamespace = DurableObjectNamespace<import("./game/field-object").FieldObject>;
type IdentityObjectNamespace = DurableObjectNamespace<import("./identity/identity-object").IdentityObject>;
type RegistryObjectNamespace = DurableObjectNamespace<import("./game/registry-object").RegistryObject>;
type HistoryObjectNamespace = DurableObjectNamespace<import("./history-store/history-object").HistoryObject>;
type RelayObjectNamespace = DurableObjectNamespace<import("./live/relay-object").RelayObject>;
