// Lets `env` and `exports` from "cloudflare:workers" carry this project's types (tests use both).
declare namespace Cloudflare {
  interface GlobalProps {
    mainModule: typeof import("./index");
    durableNamespaces: "FieldObject" | "IdentityObject" | "RegistryObject" | "RelayObject";
  }
  // An interface cannot extend an import() type directly (skipLibCheck hid that): go through an alias.
  type ProjectEnv = import("./env").Env;
  interface Env extends ProjectEnv {}
}
