package demo.android;

/** A user profile. Plain fields, no synchronisation: whoever shares it must synchronise. */
public final class Profile {
    public String name;
    public String nickname;

    public Profile(String name, String nickname) {
        this.name = name;
        this.nickname = nickname;
    }
}
