// Lets `env` and `exports` from "cloudflare:workers" carry this project's types (tests use both).
declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("./index");
    durableNamespaces: "FieldObject" | "IdentityObject" | "RegistryObject";
  }
  interface Env extends import("./env").Env {}
}
